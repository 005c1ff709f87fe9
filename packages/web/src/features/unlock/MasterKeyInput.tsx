import type { ReactElement, Ref } from 'react';
import { PasswordInput, type PasswordInputProps } from '@mantine/core';

export interface MasterKeyInputProps extends Omit<PasswordInputProps, 'value' | 'onChange' | 'onBlur'> {
  value: string;
  onValue: (value: string) => void;
  /** The field was left holding `value` (when its message starts to show). */
  onLeave?: (value: string) => void;
  ref?: Ref<HTMLInputElement>;
}

/**
 * A master unlock key field (required): the unlock and set-up form, a change of key, a recovery and
 * a new recovery kit all ask for the key through it.
 */
export function MasterKeyInput({ value, onValue, onLeave, ...field }: MasterKeyInputProps): ReactElement {
  return (
    <PasswordInput
      value={value}
      onChange={(event) => {
        onValue(event.currentTarget.value);
      }}
      onBlur={() => {
        onLeave?.(value);
      }}
      required
      {...field}
    />
  );
}
