import {
  MASTER_KEY_MIN_LENGTH,
  unlockMessages,
  validateMasterKey,
  validateMasterKeyConfirmation,
} from '@coffer/contracts';
import type { SetupStatus } from '../../lib/encryption/encryption-session';

/**
 * What the unlock screen shows: the form for set-up or unlock, the reset confirmation, the recovery
 * kit offered right after set-up, or a recovery with a kit.
 */
export type UnlockView = SetupStatus | 'reset' | 'save-kit' | 'recover';

/** Ours: titles of the two views the spec does not have. */
export const SAVE_KIT_TITLE = 'Save your recovery kit';
export const RECOVER_TITLE = 'Recover Encryption';

/** Spec section 2: the three titles; and ours for the recovery kit's two views. */
export function unlockTitle(view: UnlockView): string {
  switch (view) {
    case 'set-up':
      return unlockMessages.setUpTitle;
    case 'unlock':
      return unlockMessages.unlockTitle;
    case 'reset':
      return unlockMessages.resetTitle;
    case 'save-kit':
      return SAVE_KIT_TITLE;
    case 'recover':
      return RECOVER_TITLE;
  }
}

export interface UnlockFormValues {
  password: string;
  confirmation: string;
}

export interface UnlockFormErrors {
  password?: string;
  confirmation?: string;
}

/**
 * Spec section 5 in its order: the master unlock key's rules, then (on set-up) the confirmation.
 * Unlocking applies the same rules: every master unlock key was made under them, so a password that
 * breaks one cannot open the key, and saying so at once spares a slow key derivation.
 */
export function validateUnlockForm(mode: SetupStatus, values: UnlockFormValues): UnlockFormErrors {
  const errors: UnlockFormErrors = {};
  const password = validateMasterKey(values.password);
  if (password !== null) errors.password = password;
  if (mode === 'set-up') {
    const confirmation = validateMasterKeyConfirmation(values.password, values.confirmation);
    if (confirmation !== null) errors.confirmation = confirmation;
  }
  return errors;
}

export interface PasswordRule {
  readonly id: 'length' | 'uppercase' | 'lowercase' | 'number' | 'special';
  readonly label: string;
  readonly met: boolean;
}

/**
 * The rules as a checklist shown while typing on set-up. Same tests as `validateMasterKey`
 * (Unicode-aware letters and digits, length in code points); a unit test keeps the two in step.
 */
export function passwordChecklist(password: string): PasswordRule[] {
  return [
    {
      id: 'length',
      label: `At least ${MASTER_KEY_MIN_LENGTH} characters`,
      met: Array.from(password).length >= MASTER_KEY_MIN_LENGTH,
    },
    { id: 'uppercase', label: 'An uppercase letter', met: /\p{Lu}/u.test(password) },
    { id: 'lowercase', label: 'A lowercase letter', met: /\p{Ll}/u.test(password) },
    { id: 'number', label: 'A number', met: /\p{Nd}/u.test(password) },
    { id: 'special', label: 'A special character', met: /[^\p{L}\p{N}]/u.test(password) },
  ];
}
