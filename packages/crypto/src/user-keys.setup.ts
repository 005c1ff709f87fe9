import { InvalidKeyRecordError } from './crypto.errors.js';
import { IV_LENGTH, PBKDF2_SALT_LENGTH } from './format.constants.js';
import { ARGON2ID_PARAMS, type Argon2idParams } from './kdf.argon2.js';
import { exportPublicKeyB64, generateUserKeyPair } from './key-pair.rsa.js';
import {
  openWithWrapKey,
  parsePrivateKeyRecord,
  sealWithWrapKey,
  type EncryptPrivateKeyOptions,
} from './private-key.record.js';
import {
  assertPassword,
  assertWritableKdf,
  deriveKdfWrapKey,
  deriveRecordWrapKey,
  MAX_RECORD_REV,
  sameDerivation,
  type DeterministicRecordParams,
  type PrivateKeyRecord,
} from './wrapped-key.record.js';
import {
  exportSigningPublicKeyB64,
  generateSigningKeyPair,
  signingAlgorithmOf,
  type SigningAlgorithm,
} from './signing-key.pair.js';
import {
  openSigningKeyWithWrapKey,
  parseSigningKeyRecord,
  sealSigningKeyWithWrapKey,
} from './signing-key.record.js';

/** A new signing key pair, ready to publish: what `createSigningKeys` returns. */
export interface NewSigningKeys {
  /** base64 SPKI of the signing public key: the key record's `signingPublicKey`. */
  signingPublicKeyB64: string;
  /** The key record's `encryptedSigningKey` (same salt and KDF as `encryptedPrivateKey`). */
  encryptedSigningKeyJson: string;
  signingAlgorithm: SigningAlgorithm;
  signingPublicKey: CryptoKey;
  /** Non-extractable, `sign` only. */
  signingPrivateKey: CryptoKey;
}

/** What encryption set-up produces: the key record to upload and the keys to use now. */
export interface NewUserKeys extends NewSigningKeys {
  /** base64 SPKI: the key record's `publicKey`. */
  publicKeyB64: string;
  /** The key record's `encryptedPrivateKey`. */
  encryptedPrivateKeyJson: string;
  publicKey: CryptoKey;
  /** Non-extractable, `decrypt`/`unwrapKey` only, as {@link unlockPrivateKey} returns it. */
  privateKey: CryptoKey;
}

/**
 * How new user key records are wrapped: Argon2id with {@link ARGON2ID_PARAMS} unless told otherwise.
 * `iterations` writes a PBKDF2 record instead (rev 0): only for tests that need a record as Coffer
 * wrote them before issue 29, or a fast one.
 */
export interface UserKeyWrapOptions extends EncryptPrivateKeyOptions {
  /** Stronger Argon2id parameters than the default (weaker ones are refused). */
  argon2id?: Argon2idParams;
}

export interface CreateUserKeysOptions extends UserKeyWrapOptions {
  /** Default: {@link preferredSigningAlgorithm} (Ed25519 where WebCrypto has it). */
  signingAlgorithm?: SigningAlgorithm;
}

/**
 * Encryption set-up: generates the RSA-OAEP key pair and the signing key pair, wraps both private
 * keys with `password` (one PBKDF2 derivation, one salt, two IVs), and returns the records to upload
 * plus non-extractable private keys for this session. The extractable private keys never leave this
 * function. The usable keys are obtained by opening the new records, which also proves that they
 * open before they are uploaded.
 */
export async function createUserKeys(
  password: string,
  options: CreateUserKeysOptions = {},
): Promise<NewUserKeys> {
  const params = freshParams(options, 1);
  assertPassword(password);
  const keyPair = await generateUserKeyPair();
  const wrapKey = await deriveParamsWrapKey(password, params);
  const encryptedPrivateKeyJson = await sealWithWrapKey(keyPair.privateKey, wrapKey, params);
  const privateKey = await openWithWrapKey(parsePrivateKeyRecord(encryptedPrivateKeyJson), wrapKey, false);
  const signing = await sealNewSigningKeys(wrapKey, params, options.signingAlgorithm);
  return {
    publicKeyB64: await exportPublicKeyB64(keyPair.publicKey),
    encryptedPrivateKeyJson,
    publicKey: keyPair.publicKey,
    privateKey,
    ...signing,
  };
}

/**
 * A signing key pair for a user who already has an RSA key pair (set up before signing keys
 * existed): wrapped with the same password, salt and iterations as `encryptedPrivateKeyJson`.
 * The password is checked first: it must open the private key record.
 * @throws {WrongPasswordError} the password does not open `encryptedPrivateKeyJson`.
 * @throws {KdfDowngradeError} the private key record asks for a weaker KDF than coffer-v1 allows.
 */
export async function createSigningKeys(
  password: string,
  encryptedPrivateKeyJson: string,
  signingAlgorithm?: SigningAlgorithm,
): Promise<NewSigningKeys> {
  const record = parsePrivateKeyRecord(encryptedPrivateKeyJson);
  const wrapKey = await deriveRecordWrapKey(password, record);
  await openWithWrapKey(record, wrapKey, false);
  return sealNewSigningKeys(wrapKey, record, signingAlgorithm);
}

/** The unlocked private keys of a user. */
export interface UnlockedUserKeys {
  /** RSA-OAEP, non-extractable, `decrypt`/`unwrapKey`. */
  privateKey: CryptoKey;
  /** Non-extractable, `sign`; absent when no `encryptedSigningKey` was given. */
  signingPrivateKey?: CryptoKey;
}

/**
 * Unlock: opens the private key record and, when given, the signing key record, with one derivation
 * when both share salt and KDF (as Coffer writes them), else two. Both records must carry the same
 * `rev`: a signing record of another revision was not written with this private key record.
 * @throws {WrongPasswordError} the password opens neither record, or opens one but not the other
 * (a signing key record that the password does not open was replaced or altered).
 * @throws {KdfDowngradeError} either record asks for a weaker KDF (checked before deriving).
 * @throws {InvalidKeyRecordError} either record is malformed.
 */
export async function unlockUserKeys(
  password: string,
  encryptedPrivateKeyJson: string,
  encryptedSigningKeyJson?: string,
): Promise<UnlockedUserKeys> {
  const record = parsePrivateKeyRecord(encryptedPrivateKeyJson);
  const signingRecord =
    encryptedSigningKeyJson === undefined ? undefined : parseSigningKeyRecord(encryptedSigningKeyJson);
  if (signingRecord !== undefined) assertSameRev(record, signingRecord);
  const wrapKey = await deriveRecordWrapKey(password, record);
  const privateKey = await openWithWrapKey(record, wrapKey, false);
  if (signingRecord === undefined) return { privateKey };
  const signingWrapKey = sameDerivation(record, signingRecord)
    ? wrapKey
    : await deriveRecordWrapKey(password, signingRecord);
  return {
    privateKey,
    signingPrivateKey: await openSigningKeyWithWrapKey(signingRecord, signingWrapKey, false),
  };
}

/** New records for a password change (or a KDF upgrade with old = new password). */
export interface RewrappedUserKeys {
  encryptedPrivateKeyJson: string;
  /** Present when a signing key record was given. */
  encryptedSigningKeyJson?: string;
}

/**
 * Password change for both records: re-wraps the same private keys under `newPassword`, with one new
 * salt, Argon2id (or `options`), fresh IVs and `rev` one higher than the old records'. Also the
 * upgrade of a PBKDF2 record (old = new password): it becomes an Argon2id record with rev 1.
 * @throws {WrongPasswordError} `oldPassword` does not open the records.
 */
export async function rewrapUserKeys(
  oldPassword: string,
  newPassword: string,
  encryptedPrivateKeyJson: string,
  encryptedSigningKeyJson?: string,
  options: UserKeyWrapOptions = {},
): Promise<RewrappedUserKeys> {
  assertPassword(newPassword);
  const record = parsePrivateKeyRecord(encryptedPrivateKeyJson);
  const signingRecord =
    encryptedSigningKeyJson === undefined ? undefined : parseSigningKeyRecord(encryptedSigningKeyJson);
  if (signingRecord !== undefined) assertSameRev(record, signingRecord);
  const params = freshParams(options, nextRev(record.rev));
  const oldWrapKey = await deriveRecordWrapKey(oldPassword, record);
  // Extractable only inside this function, so that WebCrypto can wrap them again.
  const privateKey = await openWithWrapKey(record, oldWrapKey, true);
  const newWrapKey = await deriveParamsWrapKey(newPassword, params);
  const result: RewrappedUserKeys = {
    encryptedPrivateKeyJson: await sealWithWrapKey(privateKey, newWrapKey, params),
  };
  if (signingRecord !== undefined) {
    const oldSigningWrapKey = sameDerivation(record, signingRecord)
      ? oldWrapKey
      : await deriveRecordWrapKey(oldPassword, signingRecord);
    const signingKey = await openSigningKeyWithWrapKey(signingRecord, oldSigningWrapKey, true);
    result.encryptedSigningKeyJson = await sealSigningKeyWithWrapKey(signingKey, newWrapKey, {
      ...params,
      ivBytes: crypto.getRandomValues(new Uint8Array(IV_LENGTH)),
    });
  }
  return result;
}

/**
 * Generates and seals a signing key pair under `wrapKey`. The IV is always drawn here: the wrap key
 * is shared with the private key record, and an IV must never be reused under one AES-GCM key.
 */
async function sealNewSigningKeys(
  wrapKey: CryptoKey,
  derivation: Pick<DeterministicRecordParams, 'iterations' | 'saltBytes' | 'kdf' | 'rev'>,
  algorithm?: SigningAlgorithm,
): Promise<NewSigningKeys> {
  const pair = await generateSigningKeyPair(algorithm);
  const encryptedSigningKeyJson = await sealSigningKeyWithWrapKey(pair.privateKey, wrapKey, {
    ...derivation,
    ivBytes: crypto.getRandomValues(new Uint8Array(IV_LENGTH)),
  });
  const signingPrivateKey = await openSigningKeyWithWrapKey(
    parseSigningKeyRecord(encryptedSigningKeyJson),
    wrapKey,
    false,
  );
  return {
    signingPublicKeyB64: await exportSigningPublicKeyB64(pair.publicKey),
    encryptedSigningKeyJson,
    signingAlgorithm: signingAlgorithmOf(pair.publicKey),
    signingPublicKey: pair.publicKey,
    signingPrivateKey,
  };
}

/** The revision a re-wrap writes. */
export function nextRev(rev: number): number {
  if (rev >= MAX_RECORD_REV) throw new InvalidKeyRecordError('key record revision is at its maximum');
  return rev + 1;
}

function assertSameRev(record: PrivateKeyRecord, signingRecord: PrivateKeyRecord): void {
  if (record.rev !== signingRecord.rev) {
    throw new InvalidKeyRecordError(
      'the signing key record is of another revision than the private key record',
    );
  }
}

/** Salt and IV drawn at random; Argon2id with `rev` unless `options.iterations` asks for PBKDF2 (rev 0). */
export function freshParams(options: UserKeyWrapOptions, rev: number): DeterministicRecordParams {
  const random = {
    saltBytes: crypto.getRandomValues(new Uint8Array(PBKDF2_SALT_LENGTH)),
    ivBytes: crypto.getRandomValues(new Uint8Array(IV_LENGTH)),
  };
  const params: DeterministicRecordParams =
    options.iterations === undefined
      ? { iterations: 0, kdf: { ...(options.argon2id ?? ARGON2ID_PARAMS) }, rev, ...random }
      : { iterations: options.iterations, ...random };
  assertWritableKdf(params);
  return params;
}

/** The wrap key that sealing with `params` uses. */
export async function deriveParamsWrapKey(
  password: string,
  params: DeterministicRecordParams,
): Promise<CryptoKey> {
  return deriveKdfWrapKey(
    password,
    params.saltBytes,
    params.kdf ?? { name: 'PBKDF2', hash: 'SHA-256', iterations: params.iterations },
  );
}
