import { utf8Bytes } from './bytes.util.js';
import { InvalidArgumentError, InvalidKeyRecordError } from './crypto.errors.js';
import { FORMAT, IV_LENGTH, PBKDF2_ITERATIONS, PBKDF2_SALT_LENGTH } from './format.constants.js';
import { assertRsa2048, RSA_OAEP_IMPORT_PARAMS } from './key-pair.rsa.js';
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

/**
 * The additional data of an RSA private key record: none for PBKDF2 records (rev 0, as before
 * issue 29), ASCII `coffer-v1/private-key/rev/<rev>` for Argon2id records, so the revision cannot
 * be changed without failing the tag.
 */
export function privateKeyRecordAad(rev: number): Uint8Array<ArrayBuffer> | undefined {
  return rev === 0 ? undefined : utf8Bytes(`${FORMAT}/private-key/rev/${rev}`);
}

export interface EncryptPrivateKeyOptions {
  /**
   * PBKDF2 iterations for the new record; default {@link PBKDF2_ITERATIONS}. Lower only in tests,
   * and never below {@link MIN_PBKDF2_ITERATIONS}: readers refuse such records.
   */
  iterations?: number;
}

/**
 * Wraps a private key with a password into a new record: the `encryptedPrivateKey` JSON string
 * `{"iv","salt","data","kdf"}` with a fresh random salt and IV.
 *
 * The key must be extractable (as {@link generateUserKeyPair} makes it); its bytes stay inside WebCrypto.
 */
export async function encryptPrivateKey(
  privateKey: CryptoKey,
  password: string,
  options: EncryptPrivateKeyOptions = {},
): Promise<string> {
  const iterations = options.iterations ?? PBKDF2_ITERATIONS;
  return sealPrivateKeyRecord(privateKey, password, {
    iterations,
    saltBytes: crypto.getRandomValues(new Uint8Array(PBKDF2_SALT_LENGTH)),
    ivBytes: crypto.getRandomValues(new Uint8Array(IV_LENGTH)),
  });
}

/**
 * Builds a record from an extractable private key or from PKCS#8 DER bytes, with the given salt and
 * IV. Not part of the public API: {@link encryptPrivateKey} draws them at random.
 */
export async function sealPrivateKeyRecord(
  privateKeyOrPkcs8: CryptoKey | Uint8Array,
  password: string,
  params: DeterministicRecordParams,
): Promise<string> {
  assertWritableKdf(params);
  assertPassword(password);
  if (params.saltBytes.length !== PBKDF2_SALT_LENGTH) {
    throw new InvalidArgumentError(`salt must be ${PBKDF2_SALT_LENGTH} bytes`);
  }
  const wrapKey = await deriveKdfWrapKey(password, params.saltBytes, sealedKdf(params).kdf);
  return sealWithWrapKey(privateKeyOrPkcs8, wrapKey, params);
}

/**
 * {@link sealPrivateKeyRecord} with an already derived wrap key (`params` must be the salt and
 * iterations it was derived with). Not part of the public API: it lets set-up and password change
 * derive once for both of a user's private keys.
 */
export async function sealWithWrapKey(
  privateKeyOrPkcs8: CryptoKey | Uint8Array,
  wrapKey: CryptoKey,
  params: DeterministicRecordParams,
): Promise<string> {
  const { rev } = sealedKdf(params);
  const members = await sealKeyMembers(privateKeyOrPkcs8, wrapKey, params, privateKeyRecordAad(rev));
  // Member order is part of the documented format: iv, salt, data, kdf, rev.
  return JSON.stringify({ ...members, ...revMember(rev) });
}

/**
 * Opens a private key record with the user's password. Returns the private key as a NON-extractable
 * RSA-OAEP key with the `decrypt` and `unwrapKey` usages; the PKCS#8 bytes never reach JavaScript.
 *
 * A record without `kdf` is read with {@link LEGACY_PBKDF2_ITERATIONS}.
 * @throws {WrongPasswordError} the password does not open the record (or its `data` was altered).
 * @throws {KdfDowngradeError} the record asks for fewer than {@link MIN_PBKDF2_ITERATIONS}
 * iterations or for another KDF or hash (checked before deriving anything).
 * @throws {InvalidKeyRecordError} the record is malformed or holds something other than an RSA 2048 key.
 */
export async function unlockPrivateKey(
  encryptedPrivateKeyJson: string,
  password: string,
): Promise<CryptoKey> {
  return openRecord(encryptedPrivateKeyJson, password, false);
}

/**
 * Password change: re-wraps the same private key under `newPassword`, with a fresh salt and IV and
 * the current iteration count (or `options.iterations`). The old record stays valid for the old
 * password until the caller replaces it. Also upgrades records without `kdf`.
 * @throws {WrongPasswordError} `oldPassword` does not open the record.
 * @throws {InvalidKeyRecordError} the record is malformed.
 */
export async function rewrapPrivateKey(
  encryptedPrivateKeyJson: string,
  oldPassword: string,
  newPassword: string,
  options: EncryptPrivateKeyOptions = {},
): Promise<string> {
  if (typeof newPassword !== 'string' || newPassword.length === 0) {
    throw new InvalidArgumentError('new password must be a non-empty string');
  }
  // Extractable only inside this function, so that WebCrypto can wrap it again.
  const privateKey = await openRecord(encryptedPrivateKeyJson, oldPassword, true);
  return encryptPrivateKey(privateKey, newPassword, options);
}

/**
 * Parses and validates a record without decrypting it, e.g. to see whether it still uses fewer
 * than {@link PBKDF2_ITERATIONS} iterations and should be re-wrapped after the next unlock.
 * @throws {InvalidKeyRecordError} the record is malformed.
 * @throws {KdfDowngradeError} the record asks for a weaker KDF than coffer-v1 allows.
 */
export function parsePrivateKeyRecord(encryptedPrivateKeyJson: string): PrivateKeyRecord {
  return parseWrappedKeyRecord(encryptedPrivateKeyJson, 'private key record').record;
}

async function openRecord(json: string, password: string, extractable: boolean): Promise<CryptoKey> {
  const record = parsePrivateKeyRecord(json);
  const wrapKey = await deriveRecordWrapKey(password, record);
  return openWithWrapKey(record, wrapKey, extractable);
}

/** Opens a parsed private key record with its derived wrap key. Not part of the public API. */
export async function openWithWrapKey(
  record: PrivateKeyRecord,
  wrapKey: CryptoKey,
  extractable: boolean,
): Promise<CryptoKey> {
  const privateKey = await unwrapRecordKey(record, wrapKey, extractable, {
    importParams: RSA_OAEP_IMPORT_PARAMS,
    usages: ['decrypt', 'unwrapKey'],
    additionalData: privateKeyRecordAad(record.rev),
    notAKey: 'private key record does not hold an RSA PKCS#8 key',
  });
  try {
    assertRsa2048(privateKey);
  } catch (cause) {
    throw new InvalidKeyRecordError('private key record does not hold an RSA 2048 key', { cause });
  }
  return privateKey;
}
