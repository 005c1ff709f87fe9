/** Codes of the errors this package throws; stable, safe to switch on and to show in logs. */
export type CryptoErrorCode =
  | 'INTEGRITY'
  | 'WRONG_PASSWORD'
  | 'INVALID_KEY_RECORD'
  | 'INVALID_KEY'
  | 'FILE_KEY_UNWRAP_FAILED'
  | 'INVALID_ARGUMENT';

/** Base class of every typed error thrown by `@coffer/crypto`. */
export abstract class CofferCryptoError extends Error {
  abstract readonly code: CryptoErrorCode;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Encrypted content failed authentication: a bad tag, a reordered, missing, extra or truncated chunk. */
export class IntegrityError extends CofferCryptoError {
  static readonly MESSAGE = 'file is corrupted or was tampered with';
  override readonly code = 'INTEGRITY';

  constructor(options?: ErrorOptions) {
    super(IntegrityError.MESSAGE, options);
  }
}

/**
 * The password did not decrypt the private key record. AES-GCM cannot tell a wrong password from a
 * record whose `data` was altered, so both end here.
 */
export class WrongPasswordError extends CofferCryptoError {
  override readonly code = 'WRONG_PASSWORD';

  constructor(options?: ErrorOptions) {
    super('wrong password', options);
  }
}

/** A private key record is not well-formed JSON of the coffer-v1 shape, or names an unsupported KDF. */
export class InvalidKeyRecordError extends CofferCryptoError {
  override readonly code = 'INVALID_KEY_RECORD';
}

/** Key material (a public key, a PKCS#8 private key) could not be decoded or imported. */
export class InvalidKeyError extends CofferCryptoError {
  override readonly code = 'INVALID_KEY';
}

/** An encrypted file key could not be decrypted with the given private key, or is not a 256-bit key. */
export class FileKeyUnwrapError extends CofferCryptoError {
  override readonly code = 'FILE_KEY_UNWRAP_FAILED';

  constructor(options?: ErrorOptions) {
    super('the file key could not be decrypted with this private key', options);
  }
}

/** A caller passed a value outside the function's contract (a negative size, an IV of the wrong length…). */
export class InvalidArgumentError extends CofferCryptoError {
  override readonly code = 'INVALID_ARGUMENT';
}
