import type { ReactElement, Ref } from 'react';
import { Stack } from '@mantine/core';
import { MasterKeyInput } from './MasterKeyInput';
import { PasswordChecklist } from './PasswordChecklist';
import type { UnlockFormValues } from './unlock-form';

/** The labels of a new key (a change of key, a recovery). */
const NEW_KEY_LABELS = { password: 'New master unlock key', confirmation: 'Confirm new master unlock key' };

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
  /** The set-up's first key is not a "new" one. */
  labels?: { password: string; confirmation: string };
  /** Under the key's label. */
  description?: string;
}

/**
 * A new master unlock key and its confirmation, with the rules ticked off while typing: the set-up,
 * a change of key and a recovery.
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
  labels = NEW_KEY_LABELS,
  description,
}: NewKeyFieldsProps): ReactElement {
  return (
    <Stack gap="md">
      <MasterKeyInput
        ref={passwordRef}
        label={labels.password}
        description={description}
        autoComplete="new-password"
        value={values.password}
        onValue={(password) => {
          onChange({ ...values, password });
        }}
        onLeave={(password) => {
          onLeave('password', password);
        }}
        error={errors.password}
        disabled={disabled}
        size={size}
        aria-describedby={checklistId}
        {...(autoFocus ? { 'data-autofocus': true, autoFocus: true } : {})}
      />
      <PasswordChecklist password={values.password} id={checklistId} />
      <MasterKeyInput
        ref={confirmationRef}
        label={labels.confirmation}
        autoComplete="new-password"
        value={values.confirmation}
        onValue={(confirmation) => {
          onChange({ ...values, confirmation });
        }}
        onLeave={(confirmation) => {
          onLeave('confirmation', confirmation);
        }}
        error={errors.confirmation}
        disabled={disabled}
        size={size}
      />
    </Stack>
  );
}
