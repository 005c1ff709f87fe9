import { utf8Bytes } from './bytes.util.js';
import { InvalidKeyRecordError } from './crypto.errors.js';
import { FORMAT, IV_LENGTH, PBKDF2_ITERATIONS, PBKDF2_SALT_LENGTH } from './format.constants.js';
import { parsePrivateKeyRecord } from './private-key.record.js';
import {
  assertPassword,
  assertWritableKdf,
  deriveKdfWrapKey,
  deriveRecordWrapKey,
  parseWrappedKeyRecord,
  revMember,
  sealedKdf,
  sealKeyMembers,
  unwrapRecordKey,
  type DeterministicRecordParams,
  type PrivateKeyRecord,
} from './wrapped-key.record.js';
import {
  SIGNING_ALGORITHMS,
  signingAlgorithmOf,
  signingImportParams,
  type SigningAlgorithm,
} from './signing-key.pair.js';

const WHAT = 'signing key record';

/** A parsed signing key record (`encryptedSigningKey`): the private key record's fields plus `alg`. */
export interface SigningKeyRecord extends PrivateKeyRecord {
  algorithm: SigningAlgorithm;
}

export interface EncryptSigningKeyOptions {
  /** PBKDF2 iterations; default {@link PBKDF2_ITERATIONS} (ignored with `shareSaltWith`). */
  iterations?: number;
  /**
   * The user's `encryptedPrivateKey`: reuse its salt and iterations, so that one PBKDF2 derivation
   * opens both records at unlock ({@link unlockUserKeys}). The IV is always fresh.
   */
  shareSaltWith?: string;
}

/**
 * The additional data that binds a signing key record's ciphertext to its algorithm (and keeps it
 * from being confused with the RSA private key record): ASCII `coffer-v1/signing-key/<alg>` for
 * PBKDF2 records (rev 0), `coffer-v1/signing-key/<alg>/rev/<rev>` for Argon2id records.
 */
export function signingKeyRecordAad(algorithm: SigningAlgorithm, rev = 0): Uint8Array<ArrayBuffer> {
  return utf8Bytes(`${FORMAT}/signing-key/${algorithm}${rev === 0 ? '' : `/rev/${rev}`}`);
}

/**
 * Wraps a signing private key with the password into an `encryptedSigningKey` JSON string
 * `{"iv","salt","data","kdf","alg"}`: the private key record's shape and derivation, plus the
 * algorithm, which the AES-GCM additional data authenticates.
 */
export async function encryptSigningKey(
  signingPrivateKey: CryptoKey,
  password: string,
  options: EncryptSigningKeyOptions = {},
): Promise<string> {
  const params = saltParams(options);
  assertWritableKdf(params);
  assertPassword(password);
  const wrapKey = await deriveKdfWrapKey(password, params.saltBytes, sealedKdf(params).kdf);
  return sealSigningKeyWithWrapKey(signingPrivateKey, wrapKey, params);
}

/** The salt, IV and iterations of a new signing key record. */
export function saltParams(options: EncryptSigningKeyOptions): DeterministicRecordParams {
  const ivBytes = crypto.getRandomValues(new Uint8Array(IV_LENGTH));
  if (options.shareSaltWith !== undefined) {
    const rsaRecord = parsePrivateKeyRecord(options.shareSaltWith);
    return {
      iterations: rsaRecord.iterations,
      saltBytes: rsaRecord.saltBytes,
      ivBytes,
      kdf: rsaRecord.kdf,
      rev: rsaRecord.rev,
    };
  }
  const saltBytes = crypto.getRandomValues(new Uint8Array(PBKDF2_SALT_LENGTH));
  return { iterations: options.iterations ?? PBKDF2_ITERATIONS, saltBytes, ivBytes };
}

/**
 * Seals a signing private key (an extractable CryptoKey, or PKCS#8 bytes with their algorithm) with
 * an already derived wrap key. Not part of the public API.
 */
export async function sealSigningKeyWithWrapKey(
  signingPrivateKeyOrPkcs8: CryptoKey | { pkcs8Bytes: Uint8Array; algorithm: SigningAlgorithm },
  wrapKey: CryptoKey,
  params: DeterministicRecordParams,
): Promise<string> {
  const isKey = !('pkcs8Bytes' in signingPrivateKeyOrPkcs8);
  const algorithm = isKey ? signingAlgorithmOf(signingPrivateKeyOrPkcs8) : signingPrivateKeyOrPkcs8.algorithm;
  const keyOrPkcs8 = isKey ? signingPrivateKeyOrPkcs8 : signingPrivateKeyOrPkcs8.pkcs8Bytes;
  const { rev } = sealedKdf(params);
  const members = await sealKeyMembers(keyOrPkcs8, wrapKey, params, signingKeyRecordAad(algorithm, rev));
  // Member order is part of the documented format: iv, salt, data, kdf, alg, rev.
  return JSON.stringify({ ...members, alg: algorithm, ...revMember(rev) });
}

/**
 * Parses and validates an `encryptedSigningKey` without decrypting it. The KDF rules (and the
 * downgrade guard) are the private key record's.
 * @throws {InvalidKeyRecordError} malformed, or an unknown `alg`.
 * @throws {KdfDowngradeError} a weaker KDF than coffer-v1 allows.
 */
export function parseSigningKeyRecord(encryptedSigningKeyJson: string): SigningKeyRecord {
  const { record, object } = parseWrappedKeyRecord(encryptedSigningKeyJson, WHAT);
  const algorithm = object.alg;
  if (!SIGNING_ALGORITHMS.some((known) => known === algorithm)) {
    throw new InvalidKeyRecordError(`${WHAT} names an unknown algorithm ${JSON.stringify(algorithm)}`);
  }
  return { ...record, algorithm: algorithm as SigningAlgorithm };
}

/**
 * Opens an `encryptedSigningKey` with the password. Returns a NON-extractable signing key with the
 * `sign` usage only.
 * @throws {WrongPasswordError} the password does not open it (or `data`, `iv` or `alg` was altered).
 * @throws {InvalidKeyRecordError} malformed, or it does not hold a key of its algorithm.
 * @throws {KdfDowngradeError} a weaker KDF than coffer-v1 allows (checked before deriving).
 */
export async function unlockSigningKey(
  encryptedSigningKeyJson: string,
  password: string,
): Promise<CryptoKey> {
  const record = parseSigningKeyRecord(encryptedSigningKeyJson);
  return openSigningKeyWithWrapKey(record, await deriveRecordWrapKey(password, record), false);
}

/** Opens a parsed signing key record with its derived wrap key. Not part of the public API. */
export async function openSigningKeyWithWrapKey(
  record: SigningKeyRecord,
  wrapKey: CryptoKey,
  extractable: boolean,
): Promise<CryptoKey> {
  return unwrapRecordKey(record, wrapKey, extractable, {
    importParams: signingImportParams(record.algorithm),
    usages: ['sign'],
    additionalData: signingKeyRecordAad(record.algorithm, record.rev),
    notAKey: `${WHAT} does not hold a ${record.algorithm} PKCS#8 key`,
  });
}
