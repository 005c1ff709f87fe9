import { unlockMessages } from '@coffer/contracts';

export type EncryptionErrorCode =
  | 'ENCRYPTION_NOT_INITIALIZED'
  | 'UNLOCK_FAILED'
  | 'WRONG_OLD_PASSWORD'
  | 'INVALID_PASSWORD'
  | 'KEYS_NOT_FOUND'
  | 'KEYS_ALREADY_EXIST'
  | 'KEYS_TAMPERED';

/** Base class of the encryption session's errors; `code` is stable, the message user-facing. */
export abstract class EncryptionSessionError extends Error {
  abstract readonly code: EncryptionErrorCode;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Keys are needed but encryption is not unlocked. Screens show their own text for it. */
export class EncryptionNotInitializedError extends EncryptionSessionError {
  override readonly code = 'ENCRYPTION_NOT_INITIALIZED';
  constructor() {
    super('Encryption not initialized.');
  }
}

/** The master unlock key does not open the private key (spec section 8 text). */
export class UnlockFailedError extends EncryptionSessionError {
  override readonly code = 'UNLOCK_FAILED';
  constructor(options?: ErrorOptions) {
    super(unlockMessages.unlockFailed, options);
  }
}

/** Password change: the old password does not open the private key. */
export class WrongOldPasswordError extends EncryptionSessionError {
  override readonly code = 'WRONG_OLD_PASSWORD';
  constructor(options?: ErrorOptions) {
    super('The current master unlock key is not correct.', options);
  }
}

/** A new master unlock key breaks a rule of spec section 5; the message is the rule's text. */
export class InvalidPasswordError extends EncryptionSessionError {
  override readonly code = 'INVALID_PASSWORD';
}

/** Unlock or password change without any key on the server. */
export class KeysNotFoundError extends EncryptionSessionError {
  override readonly code = 'KEYS_NOT_FOUND';
  constructor() {
    super('No encryption keys found. Set up encryption first.');
  }
}

/** Set-up while keys exist and no reset asked for new ones: unlock instead. */
export class KeysAlreadyExistError extends EncryptionSessionError {
  override readonly code = 'KEYS_ALREADY_EXIST';
  constructor() {
    super('Encryption is already set up for this account. Unlock it with your master unlock key.');
  }
}

/**
 * The server's key record was tampered with: its public key is not the half of the private key the
 * password opened, or it asks for a weaker key derivation than Coffer allows. The message says so
 * in the user's words; `cause` is the @coffer/crypto error (`KeyMismatchError`, `KdfDowngradeError`).
 */
export class KeysTamperedError extends EncryptionSessionError {
  override readonly code = 'KEYS_TAMPERED';
}
