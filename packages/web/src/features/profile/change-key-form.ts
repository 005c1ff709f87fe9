import { validateMasterKey } from '@coffer/contracts';
import { validateUnlockForm } from '../unlock/unlock-form';

export interface ChangeKeyValues {
  current: string;
  password: string;
  confirmation: string;
}

export type ChangeKeyErrors = Partial<Record<keyof ChangeKeyValues, string>>;

/** Ours: a "new" key equal to the current one would change nothing. */
export const SAME_KEY_MESSAGE = 'The new master unlock key must differ from the current one.';

/**
 * Spec section 5's messages for each field: the current key (made under the same rules, so one that
 * breaks a rule cannot be it), the new key, and its confirmation.
 */
export function validateChangeKeyForm(values: ChangeKeyValues): ChangeKeyErrors {
  const errors: ChangeKeyErrors = { ...validateUnlockForm('set-up', values) };
  const current = validateMasterKey(values.current);
  if (current !== null) errors.current = current;
  if (errors.password === undefined && values.password === values.current) errors.password = SAME_KEY_MESSAGE;
  return errors;
}
