import { base64ToBytes, bytesToBase64 } from './base64.codec.js';
import { toBufferSource, utf8Bytes } from './bytes.util.js';
import {
  InvalidArgumentError,
  InvalidKeyRecordError,
  KdfDowngradeError,
  WrongPasswordError,
} from './crypto.errors.js';
import { IV_LENGTH, LEGACY_PBKDF2_ITERATIONS, MIN_PBKDF2_ITERATIONS } from './format.constants.js';

// What the private key record and the signing key record share: their members `iv`, `salt`,
// `data`, `kdf`, the password derivation (and its downgrade guard), sealing and opening.

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

/** A parsed private key record (`encryptedPrivateKey`), binary fields decoded. */
export interface PrivateKeyRecord {
  ivBytes: Uint8Array<ArrayBuffer>;
  saltBytes: Uint8Array<ArrayBuffer>;
  /** AES-256-GCM ciphertext of the PKCS#8 DER private key, tag included. */
  dataBytes: Uint8Array<ArrayBuffer>;
  /** PBKDF2 iterations: from `kdf`, or {@link LEGACY_PBKDF2_ITERATIONS} when the record has none. */
  iterations: number;
  /** False for a spec-style record without `kdf`. */
  hasKdf: boolean;
}

/**
 * Fixed salt and IV, so that a record can be reproduced byte for byte. Only for test vectors:
 * reusing a salt/IV pair with the same password is a real weakness.
 */
export interface DeterministicRecordParams {
  iterations: number;
  saltBytes: Uint8Array;
  ivBytes: Uint8Array;
}

const AES_GCM_TAG_LENGTH = 16;

/** The members every wrapped key record starts with, in the documented order. */
export interface SealedKeyMembers {
  iv: string;
  salt: string;
  data: string;
  kdf: KdfParams;
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
    kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations: params.iterations },
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
    return { ivBytes, saltBytes, dataBytes, iterations: LEGACY_PBKDF2_ITERATIONS, hasKdf: false };
  }
  if (!isObject(kdf)) throw new InvalidKeyRecordError(`${what} has a kdf that is not an object`);
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
  return { ivBytes, saltBytes, dataBytes, iterations, hasKdf: true };
}

/**
 * The wrap key of a parsed record. No record is ever made with an empty password (some engines
 * also refuse empty PBKDF2 input), so an empty one is simply wrong.
 */
export async function deriveRecordWrapKey(password: string, record: PrivateKeyRecord): Promise<CryptoKey> {
  if (typeof password !== 'string' || password.length === 0) throw new WrongPasswordError();
  return deriveWrapKey(password, record.saltBytes, record.iterations);
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
