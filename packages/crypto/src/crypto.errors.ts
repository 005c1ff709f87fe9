import { CodedError, withCode } from './coded-error.base.js';

/** Codes of the errors this package throws; stable, safe to switch on and to show in logs. */
export type CryptoErrorCode =
  | 'INTEGRITY'
  | 'WRONG_PASSWORD'
  | 'INVALID_KEY_RECORD'
  | 'INVALID_KEY'
  | 'FILE_KEY_UNWRAP_FAILED'
  | 'INVALID_ARGUMENT'
  | 'KDF_DOWNGRADE'
  | 'KEY_MISMATCH'
  | 'PIN_SET_INVALID'
  | 'PIN_SET_ROLLBACK'
  | 'KEY_ROLLBACK'
  | 'RECOVERY_WORDS_INVALID'
  | 'RECOVERY_KIT_MISMATCH'
  | 'NODE_KEY_UNWRAP_FAILED'
  | 'METADATA_INVALID'
  | 'LINK_FRAGMENT_INVALID'
  | 'LINK_KEY_UNWRAP_FAILED'
  | 'REQUEST_KEY_MISMATCH';

/** Base class of every typed error thrown by `@coffer/crypto`. */
export abstract class CofferCryptoError extends CodedError<CryptoErrorCode> {}

const INTEGRITY_MESSAGE = 'file is corrupted or was tampered with';

/** Encrypted content failed authentication: a bad tag, a reordered, missing, extra or truncated chunk. */
export class IntegrityError extends withCode(CofferCryptoError, 'INTEGRITY', INTEGRITY_MESSAGE) {
  static readonly MESSAGE = INTEGRITY_MESSAGE;
}

/**
 * The password did not decrypt the private key record. AES-GCM cannot tell a wrong password from a
 * record whose `data` was altered, so both end here.
 */
export class WrongPasswordError extends withCode(CofferCryptoError, 'WRONG_PASSWORD', 'wrong password') {}

/** A private key record is not well-formed JSON of the coffer-v1 shape, or names an unsupported KDF. */
export class InvalidKeyRecordError extends withCode(CofferCryptoError, 'INVALID_KEY_RECORD') {}

/** Key material (a public key, a PKCS#8 private key) could not be decoded or imported. */
export class InvalidKeyError extends withCode(CofferCryptoError, 'INVALID_KEY') {}

/** An encrypted file key could not be decrypted with the given private key, or is not a 256-bit key. */
export class FileKeyUnwrapError extends withCode(
  CofferCryptoError,
  'FILE_KEY_UNWRAP_FAILED',
  'the file key could not be decrypted with this private key',
) {}

/** A caller passed a value outside the function's contract (a negative size, an IV of the wrong length…). */
export class InvalidArgumentError extends withCode(CofferCryptoError, 'INVALID_ARGUMENT') {}

/**
 * A private key record asks for a weaker key derivation than coffer-v1 allows: fewer than 100,000
 * PBKDF2 iterations, or another KDF or hash. Refused before any derivation, because the record comes
 * from the server, and a server that lowers the cost makes the password cheaper to guess from
 * whatever the client does next (e.g. a re-wrap under the same weak parameters).
 */
export class KdfDowngradeError extends withCode(CofferCryptoError, 'KDF_DOWNGRADE') {}

/**
 * A served public key is not the public half of the private key the user just decrypted (or a key
 * id / binding does not match): the server, or someone who controls its database, swapped the
 * user's own key. Continuing would wrap file keys to a key the user does not hold.
 */
export class KeyMismatchError extends withCode(CofferCryptoError, 'KEY_MISMATCH') {}

/** A pin set blob is malformed, or its signature does not verify with the user's own signing key. */
export class PinSetInvalidError extends withCode(CofferCryptoError, 'PIN_SET_INVALID') {}

/** A pin set is authentic but older than the newest version this client has seen: a rollback. */
export class PinSetRollbackError extends withCode(CofferCryptoError, 'PIN_SET_ROLLBACK') {
  constructor(
    readonly servedVersion: number,
    readonly knownVersion: number,
  ) {
    super(`pin set version ${servedVersion} is older than version ${knownVersion} seen before: rolled back`);
  }
}

/**
 * A key record is authentic but older (lower `rev`) than one this client opened or wrote before:
 * the server serves a copy wrapped under an earlier master unlock key.
 */
export class KeyRollbackError extends withCode(CofferCryptoError, 'KEY_ROLLBACK') {
  constructor(
    readonly servedRev: number,
    readonly knownRev: number,
  ) {
    super(`key record revision ${servedRev} is older than revision ${knownRev} seen before: rolled back`);
  }
}

/** Typed recovery words are not a recovery kit: a wrong count, an unknown word or a failed checksum. */
export class RecoveryWordsError extends withCode(CofferCryptoError, 'RECOVERY_WORDS_INVALID') {}

/**
 * The recovery words are valid but do not open the served wraps: the kit was replaced by a newer one,
 * the words are another account's, or a wrap was altered or moved to another key.
 */
export class RecoveryKitMismatchError extends withCode(CofferCryptoError, 'RECOVERY_KIT_MISMATCH') {}

/**
 * A drive, folder or file key could not be unwrapped: not base64, the wrong length, wrapped under
 * another parent key, moved to another place (parent or node id: the AAD binds both), or altered.
 */
export class NodeKeyUnwrapError extends withCode(CofferCryptoError, 'NODE_KEY_UNWRAP_FAILED') {}

/**
 * A node's encrypted metadata does not open with its key and node id (altered, or swapped with
 * another node's), or what it holds is not a name and an optional content type within the limits.
 */
export class MetadataInvalidError extends withCode(CofferCryptoError, 'METADATA_INVALID') {}

/**
 * A link's URL fragment is not what Coffer writes: not base64url, a secret of the wrong length, a
 * fingerprint that is not 64 hex digits, or extra text (a truncated or altered link).
 */
export class LinkFragmentError extends withCode(CofferCryptoError, 'LINK_FRAGMENT_INVALID') {}

/**
 * A file key or metadata served under a link does not open with the link key at its place: a wrong
 * secret or password, an item of another link or file, or altered.
 */
export class LinkKeyUnwrapError extends withCode(CofferCryptoError, 'LINK_KEY_UNWRAP_FAILED') {}

/**
 * The owner public key served for a file request is not the one whose fingerprint the request
 * link carries: the server (or its database) swapped it; nothing is encrypted to it.
 */
export class RequestKeyMismatchError extends withCode(
  CofferCryptoError,
  'REQUEST_KEY_MISMATCH',
  "the served owner key does not match the request link's fingerprint",
) {}
