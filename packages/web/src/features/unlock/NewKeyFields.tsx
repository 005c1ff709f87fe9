import type { ReactElement, Ref } from 'react';
import { PasswordInput, Stack } from '@mantine/core';
import { PasswordChecklist } from './PasswordChecklist';
import type { UnlockFormValues } from './unlock-form';

export interface NewKeyFieldsProps {
  values: UnlockFormValues;
  onChange: (values: UnlockFormValues) => void;
  /** The messages to show now (spec section 5), or null. */
  errors: { password: string | null; confirmation: string | null };
  onLeave: (field: keyof UnlockFormValues, value: string) => void;
  disabled: boolean;
  /** Distinguishes the checklist when two forms are on one page. */
  checklistId: string;
  passwordRef?: Ref<HTMLInputElement>;
  confirmationRef?: Ref<HTMLInputElement>;
  size?: 'sm' | 'md';
  autoFocus?: boolean;
}

/**
 * A new master unlock key and its confirmation, with the rules ticked off while typing: the same
 * fields as the set-up, for a change of key and for a recovery.
 */
export function NewKeyFields({
  values,
  onChange,
  errors,
  onLeave,
  disabled,
  checklistId,
  passwordRef,
  confirmationRef,
  size = 'sm',
  autoFocus = false,
}: NewKeyFieldsProps): ReactElement {
  return (
    <Stack gap="md">
      <PasswordInput
        ref={passwordRef}
        label="New master unlock key"
        autoComplete="new-password"
        value={values.password}
        onChange={(event) => {
          onChange({ ...values, password: event.currentTarget.value });
        }}
        onBlur={() => {
          onLeave('password', values.password);
        }}
        error={errors.password}
        disabled={disabled}
        required
        size={size}
        aria-describedby={checklistId}
        {...(autoFocus ? { 'data-autofocus': true, autoFocus: true } : {})}
      />
      <PasswordChecklist password={values.password} id={checklistId} />
      <PasswordInput
        ref={confirmationRef}
        label="Confirm new master unlock key"
        autoComplete="new-password"
        value={values.confirmation}
        onChange={(event) => {
          onChange({ ...values, confirmation: event.currentTarget.value });
        }}
        onBlur={() => {
          onLeave('confirmation', values.confirmation);
        }}
        error={errors.confirmation}
        disabled={disabled}
        required
        size={size}
      />
    </Stack>
  );
}
