import { unlockMessages } from '@coffer/contracts';
import { CodedError, withCode } from '@coffer/crypto';

export type EncryptionErrorCode =
  | 'ENCRYPTION_NOT_INITIALIZED'
  | 'UNLOCK_FAILED'
  | 'WRONG_OLD_PASSWORD'
  | 'INVALID_PASSWORD'
  | 'KEYS_NOT_FOUND'
  | 'KEYS_ALREADY_EXIST'
  | 'KEYS_TAMPERED'
  | 'RECOVERY_WORDS_INVALID'
  | 'RECOVERY_KIT_REPLACED'
  | 'NO_RECOVERY_KIT';

/** Base class of the encryption session's errors; `code` is stable, the message user-facing. */
export abstract class EncryptionSessionError extends CodedError<EncryptionErrorCode> {}

/** Keys are needed but encryption is not unlocked. Screens show their own text for it. */
export class EncryptionNotInitializedError extends withCode(
  EncryptionSessionError,
  'ENCRYPTION_NOT_INITIALIZED',
  'Encryption not initialized.',
) {}

/** The master unlock key does not open the private key (spec section 8 text). */
export class UnlockFailedError extends withCode(
  EncryptionSessionError,
  'UNLOCK_FAILED',
  unlockMessages.unlockFailed,
) {}

/** Password change: the old password does not open the private key. */
export class WrongOldPasswordError extends withCode(
  EncryptionSessionError,
  'WRONG_OLD_PASSWORD',
  'The current master unlock key is not correct.',
) {}

/** A new master unlock key breaks a rule of spec section 5; the message is the rule's text. */
export class InvalidPasswordError extends withCode(EncryptionSessionError, 'INVALID_PASSWORD') {}

/** Unlock or password change without any key on the server. */
export class KeysNotFoundError extends withCode(
  EncryptionSessionError,
  'KEYS_NOT_FOUND',
  'No encryption keys found. Set up encryption first.',
) {}

/** Set-up while keys exist and no reset asked for new ones: unlock instead. */
export class KeysAlreadyExistError extends withCode(
  EncryptionSessionError,
  'KEYS_ALREADY_EXIST',
  'Encryption is already set up for this account. Unlock it with your master unlock key.',
) {}

/**
 * The server's key record was tampered with: its public key is not the half of the private key the
 * password opened, or it asks for a weaker key derivation than Coffer allows. The message says so
 * in the user's words; `cause` is the @coffer/crypto error (`KeyMismatchError`, `KdfDowngradeError`).
 */
export class KeysTamperedError extends withCode(EncryptionSessionError, 'KEYS_TAMPERED') {}

/** The typed words are not a recovery kit (count, unknown word, checksum); the message says which. */
export class RecoveryWordsInvalidError extends withCode(EncryptionSessionError, 'RECOVERY_WORDS_INVALID') {}

/** The words are a kit's, but the person has made a newer kit since: the old one opens nothing. */
export class RecoveryKitReplacedError extends withCode(
  EncryptionSessionError,
  'RECOVERY_KIT_REPLACED',
  'This recovery kit has been replaced by a newer one',
) {}

/** Recovery asked for, but the server holds no recovery kit for this person. */
export class NoRecoveryKitError extends withCode(
  EncryptionSessionError,
  'NO_RECOVERY_KIT',
  'Your account has no recovery kit. Only a reset is left.',
) {}
