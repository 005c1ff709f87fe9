import { base64ToBytes, bytesToBase64 } from './base64.codec.js';
import { toBufferSource, utf8Bytes } from './bytes.util.js';
import {
  InvalidArgumentError,
  InvalidKeyRecordError,
  KdfDowngradeError,
  WrongPasswordError,
} from './crypto.errors.js';
import { IV_LENGTH, LEGACY_PBKDF2_ITERATIONS, MIN_PBKDF2_ITERATIONS } from './format.constants.js';
import { deriveArgon2idWrapKey, parseArgon2idParams, type Argon2idParams } from './kdf.argon2.js';

// What the private key record and the signing key record share: their members `iv`, `salt`,
// `data`, `kdf` and `rev`, the password derivation (PBKDF2 or Argon2id, and its downgrade guard),
// sealing and opening.

/**
 * Upper bound on the iterations a record may ask for. The record comes from the server; without a
 * bound, a tampered record could make the browser spin for hours before failing.
 */
export const MAX_PBKDF2_ITERATIONS = 10_000_000;

/** The `kdf` member of a private key record. */
export interface KdfParams {
  name: 'PBKDF2';
  hash: 'SHA-256';
  iterations: number;
}

/** The key derivation of a record: PBKDF2 (records before issue 29) or Argon2id (every new record). */
export type RecordKdf = KdfParams | Argon2idParams;

/** A parsed private key record (`encryptedPrivateKey`), binary fields decoded. */
export interface PrivateKeyRecord {
  ivBytes: Uint8Array<ArrayBuffer>;
  saltBytes: Uint8Array<ArrayBuffer>;
  /** AES-256-GCM ciphertext of the PKCS#8 DER private key, tag included. */
  dataBytes: Uint8Array<ArrayBuffer>;
  /** The derivation: from `kdf`, or PBKDF2 with {@link LEGACY_PBKDF2_ITERATIONS} when the record has none. */
  kdf: RecordKdf;
  /** PBKDF2 iterations of a PBKDF2 record; 0 for an Argon2id record. */
  iterations: number;
  /** False for a spec-style record without `kdf`. */
  hasKdf: boolean;
  /**
   * The record's revision, authenticated by its AES-GCM additional data: 0 for PBKDF2 records
   * (which have no `rev`), from 1 for Argon2id records, one higher at every re-wrap.
   */
  rev: number;
}

/**
 * Fixed salt and IV, so that a record can be reproduced byte for byte. Only for test vectors:
 * reusing a salt/IV pair with the same password is a real weakness. With `iterations` only, the
 * record is PBKDF2 (rev 0); with `kdf`, that derivation (an Argon2id record needs `rev` ≥ 1).
 */
export interface DeterministicRecordParams {
  iterations: number;
  saltBytes: Uint8Array;
  ivBytes: Uint8Array;
  kdf?: RecordKdf;
  rev?: number;
}

/** The highest revision a record may carry: far beyond any number of key changes. */
export const MAX_RECORD_REV = 2_147_483_647;

const AES_GCM_TAG_LENGTH = 16;

/** The members every wrapped key record starts with, in the documented order. */
export interface SealedKeyMembers {
  iv: string;
  salt: string;
  data: string;
  kdf: RecordKdf;
}

/** The derivation and revision that sealing with `params` writes. */
export function sealedKdf(params: DeterministicRecordParams): { kdf: RecordKdf; rev: number } {
  const kdf: RecordKdf = params.kdf ?? { name: 'PBKDF2', hash: 'SHA-256', iterations: params.iterations };
  const rev = params.rev ?? 0;
  if (kdf.name === 'PBKDF2' ? rev !== 0 : !Number.isSafeInteger(rev) || rev < 1 || rev > MAX_RECORD_REV) {
    throw new InvalidArgumentError('rev is 0 for PBKDF2 records and from 1 for Argon2id records');
  }
  return { kdf, rev };
}

/** The members a record ends with: `rev` for Argon2id records, nothing for PBKDF2 ones. */
export function revMember(rev: number): { rev?: number } {
  return rev === 0 ? {} : { rev };
}

/**
 * Seals a private key (an extractable CryptoKey, or PKCS#8 bytes) with an already derived wrap key.
 * `additionalData` binds the ciphertext to what a record type adds (the signing key's algorithm).
 * Not part of the public API.
 */
export async function sealKeyMembers(
  privateKeyOrPkcs8: CryptoKey | Uint8Array,
  wrapKey: CryptoKey,
  params: DeterministicRecordParams,
  additionalData?: Uint8Array<ArrayBuffer>,
): Promise<SealedKeyMembers> {
  if (params.ivBytes.length !== IV_LENGTH) throw new InvalidArgumentError(`iv must be ${IV_LENGTH} bytes`);
  const gcm: AesGcmParams = { name: 'AES-GCM', iv: toBufferSource(params.ivBytes), additionalData };
  const dataBuffer =
    privateKeyOrPkcs8 instanceof Uint8Array
      ? await crypto.subtle.encrypt(gcm, wrapKey, toBufferSource(privateKeyOrPkcs8))
      : await crypto.subtle.wrapKey('pkcs8', privateKeyOrPkcs8, wrapKey, gcm);
  return {
    iv: bytesToBase64(params.ivBytes),
    salt: bytesToBase64(params.saltBytes),
    data: bytesToBase64(new Uint8Array(dataBuffer)),
    kdf: sealedKdf(params).kdf,
  };
}

/**
 * Parses the shape shared by the private key record and the signing key record. Returns the
 * decoded record and the parsed JSON object, so that a caller can read its own extra members.
 */
export function parseWrappedKeyRecord(
  json: string,
  what: string,
): { record: PrivateKeyRecord; object: Record<string, unknown> } {
  const object = parseJsonObject(json, what);
  return { record: recordFromObject(object, what), object };
}

function parseJsonObject(json: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (cause) {
    throw new InvalidKeyRecordError(`${what} is not valid JSON`, { cause });
  }
  if (!isObject(value)) throw new InvalidKeyRecordError(`${what} is not a JSON object`);
  return value;
}

function recordFromObject(value: Record<string, unknown>, what: string): PrivateKeyRecord {
  const ivBytes = binaryField(value, 'iv', what);
  const saltBytes = binaryField(value, 'salt', what);
  const dataBytes = binaryField(value, 'data', what);
  // Readers accept any non-empty IV and salt (writers always use 12 and 16 bytes).
  if (ivBytes.length === 0) throw new InvalidKeyRecordError(`${what} has an empty iv`);
  if (saltBytes.length === 0) throw new InvalidKeyRecordError(`${what} has an empty salt`);
  if (dataBytes.length <= AES_GCM_TAG_LENGTH) throw new InvalidKeyRecordError(`${what} data is too short`);
  const kdf = value.kdf;
  if (kdf === undefined) {
    assertNoRev(value, what);
    const legacy: KdfParams = { name: 'PBKDF2', hash: 'SHA-256', iterations: LEGACY_PBKDF2_ITERATIONS };
    return {
      ivBytes,
      saltBytes,
      dataBytes,
      kdf: legacy,
      iterations: LEGACY_PBKDF2_ITERATIONS,
      hasKdf: false,
      rev: 0,
    };
  }
  if (!isObject(kdf)) throw new InvalidKeyRecordError(`${what} has a kdf that is not an object`);
  if (kdf.name === 'Argon2id') {
    // Weak parameters are a downgrade (KdfDowngradeError), absurd ones an invalid record: both
    // refused here, before anything is derived from the password.
    const argon2id = parseArgon2idParams(kdf);
    if (saltBytes.length < 8) throw new InvalidKeyRecordError(`${what} has an Argon2id salt under 8 bytes`);
    const rev = value.rev;
    if (typeof rev !== 'number' || !Number.isSafeInteger(rev) || rev < 1 || rev > MAX_RECORD_REV) {
      throw new InvalidKeyRecordError(`${what} has no valid rev (a positive integer)`);
    }
    return { ivBytes, saltBytes, dataBytes, kdf: argon2id, iterations: 0, hasKdf: true, rev };
  }
  // The record comes from the server: a weaker KDF than coffer-v1's is a downgrade, refused
  // before deriving anything (a record without kdf still means the spec's 100000).
  if (kdf.name !== 'PBKDF2' || kdf.hash !== 'SHA-256') {
    throw new KdfDowngradeError(
      `${what} asks for an unsupported key derivation (${String(kdf.name)}/${String(kdf.hash)}); coffer-v1 uses PBKDF2/SHA-256`,
    );
  }
  const iterations = kdf.iterations;
  if (typeof iterations !== 'number' || !Number.isSafeInteger(iterations) || iterations < 1) {
    throw new InvalidKeyRecordError(`${what} has invalid kdf iterations`);
  }
  if (iterations < MIN_PBKDF2_ITERATIONS) {
    throw new KdfDowngradeError(
      `${what} asks for ${iterations} PBKDF2 iterations, fewer than the minimum ${MIN_PBKDF2_ITERATIONS}`,
    );
  }
  if (iterations > MAX_PBKDF2_ITERATIONS) {
    throw new InvalidKeyRecordError(`${what} asks for more than ${MAX_PBKDF2_ITERATIONS} iterations`);
  }
  assertNoRev(value, what);
  const pbkdf2: KdfParams = { name: 'PBKDF2', hash: 'SHA-256', iterations };
  return { ivBytes, saltBytes, dataBytes, kdf: pbkdf2, iterations, hasKdf: true, rev: 0 };
}

/** `rev` belongs to Argon2id records only: a PBKDF2 record's revision is 0, unauthenticated. */
function assertNoRev(value: Record<string, unknown>, what: string): void {
  if (value.rev !== undefined)
    throw new InvalidKeyRecordError(`${what} has a rev but is not an Argon2id record`);
}

/**
 * The wrap key of a parsed record. No record is ever made with an empty password (some engines
 * also refuse empty PBKDF2 input), so an empty one is simply wrong.
 */
export async function deriveRecordWrapKey(password: string, record: PrivateKeyRecord): Promise<CryptoKey> {
  if (typeof password !== 'string' || password.length === 0) throw new WrongPasswordError();
  return deriveKdfWrapKey(password, record.saltBytes, record.kdf);
}

/** The wrap key of `kdf` (PBKDF2 or Argon2id) for a password and salt. Not part of the public API. */
export async function deriveKdfWrapKey(
  password: string,
  saltBytes: Uint8Array,
  kdf: RecordKdf,
): Promise<CryptoKey> {
  return kdf.name === 'Argon2id'
    ? deriveArgon2idWrapKey(password, saltBytes, kdf)
    : deriveWrapKey(password, saltBytes, kdf.iterations);
}

/** True when two parsed records were sealed under one derivation (same KDF and salt). */
export function sameDerivation(a: PrivateKeyRecord, b: PrivateKeyRecord): boolean {
  return (
    JSON.stringify(a.kdf) === JSON.stringify(b.kdf) &&
    a.saltBytes.length === b.saltBytes.length &&
    a.saltBytes.every((byte, i) => b.saltBytes[i] === byte)
  );
}

/** What a record type's private key is, to open its record. */
export interface RecordKeyImport {
  importParams: AlgorithmIdentifier | RsaHashedImportParams | EcKeyImportParams;
  usages: KeyUsage[];
  /** The AES-GCM additional data the record was sealed with, if any. */
  additionalData?: Uint8Array<ArrayBuffer>;
  /** The {@link InvalidKeyRecordError} message when the decrypted bytes are not such a key. */
  notAKey: string;
}

/** Opens a parsed wrapped key record with its derived wrap key. Not part of the public API. */
export async function unwrapRecordKey(
  record: PrivateKeyRecord,
  wrapKey: CryptoKey,
  extractable: boolean,
  key: RecordKeyImport,
): Promise<CryptoKey> {
  try {
    return await crypto.subtle.unwrapKey(
      'pkcs8',
      record.dataBytes,
      wrapKey,
      { name: 'AES-GCM', iv: record.ivBytes, additionalData: key.additionalData },
      key.importParams,
      extractable,
      key.usages,
    );
  } catch (cause) {
    // OperationError is the AES-GCM tag check; anything else means the decrypted bytes are not a key.
    if (cause instanceof Error && cause.name === 'OperationError') throw new WrongPasswordError({ cause });
    throw new InvalidKeyRecordError(key.notAKey, { cause });
  }
}

/**
 * The AES-256-GCM key that wraps a user's private keys: PBKDF2-HMAC-SHA256(password UTF-8, salt,
 * iterations). Not exported from the package: the signing key record reuses it.
 */
export async function deriveWrapKey(
  password: string,
  saltBytes: Uint8Array,
  iterations: number,
): Promise<CryptoKey> {
  const passwordKey = await crypto.subtle.importKey('raw', utf8Bytes(password), 'PBKDF2', false, [
    'deriveKey',
  ]);
  return crypto.subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt: toBufferSource(saltBytes), iterations },
    passwordKey,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey'],
  );
}

/** No record is ever sealed with an empty password. */
export function assertPassword(password: string): void {
  if (typeof password !== 'string' || password.length === 0) {
    throw new InvalidArgumentError('password must be a non-empty string');
  }
}

/** Writers never produce a record that readers would refuse. */
export function assertWritableKdf(params: DeterministicRecordParams): void {
  const { kdf } = sealedKdf(params);
  if (kdf.name === 'PBKDF2') {
    assertIterations(kdf.iterations);
    return;
  }
  try {
    parseArgon2idParams({ ...kdf });
  } catch (cause) {
    throw new InvalidArgumentError('Argon2id parameters outside what readers accept', { cause });
  }
}

/** Writers never produce a record that readers would refuse. */
export function assertIterations(iterations: number): void {
  if (
    !Number.isSafeInteger(iterations) ||
    iterations < MIN_PBKDF2_ITERATIONS ||
    iterations > MAX_PBKDF2_ITERATIONS
  ) {
    throw new InvalidArgumentError(
      `iterations must be an integer from ${MIN_PBKDF2_ITERATIONS} to ${MAX_PBKDF2_ITERATIONS}`,
    );
  }
}

function binaryField(record: Record<string, unknown>, name: string, what: string): Uint8Array<ArrayBuffer> {
  const text = record[name];
  if (typeof text !== 'string') throw new InvalidKeyRecordError(`${what} has no string "${name}"`);
  try {
    return base64ToBytes(text);
  } catch (cause) {
    throw new InvalidKeyRecordError(`${what} "${name}" is not valid base64`, { cause });
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
