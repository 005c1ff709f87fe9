import { InvalidKeyRecordError, RecoveryKitMismatchError } from './crypto.errors.js';
import { IV_LENGTH } from './format.constants.js';
import { openWithWrapKey, parsePrivateKeyRecord, sealWithWrapKey } from './private-key.record.js';
import {
  deriveRecoveryWrapKey,
  openRecoveryWrap,
  recoveryKitId,
  sealRecoveryWrap,
  type RecoveryWrapContext,
} from './recovery-kit.js';
import {
  openSigningKeyWithWrapKey,
  parseSigningKeyRecord,
  sealSigningKeyWithWrapKey,
  type SigningKeyRecord,
} from './signing-key.record.js';
import { deriveParamsWrapKey, freshParams, nextRev, type UserKeyWrapOptions } from './user-keys.setup.js';
import {
  assertPassword,
  deriveRecordWrapKey,
  sameDerivation,
  type PrivateKeyRecord,
} from './wrapped-key.record.js';

/** A user's key record as the server lists it (GET /users/keys): the members recovery reads. */
export interface WrappedKeyRecord {
  keyId: string;
  encryptedPrivateKey: string;
  encryptedSigningKey?: string;
}

/**
 * One key record's copies under the recovery kit: `encryptedPrivateKey` and `encryptedSigningKey`
 * hold recovery wraps (`{"v":1,"kitId","iv","data"}`), not password-wrapped records.
 */
export type RecoveryWrap = WrappedKeyRecord;

/** What PUT /users/keys/recovery stores and GET answers: the kit's id and one wrap per key record. */
export interface RecoveryWraps {
  kitId: string;
  wraps: RecoveryWrap[];
}

/** The kit a person was just shown (`createRecoveryKit()`): its secret and its id. */
export interface RecoveryKitSecret {
  secretBytes: Uint8Array;
  kitId: string;
}

const RSA_PURPOSE = 'private-key';

/**
 * Wraps every private key of `keyRecords` a second time, under the recovery kit: opens each record
 * with `password` (PKCS#8 bytes exist only inside this function, and are zeroed after sealing) and
 * seals the RSA and signing keys with AAD `coffer-v1/recovery/<purpose>/<keyId>`. The answer is the
 * body of PUT /users/keys/recovery.
 * @throws {WrongPasswordError} the password does not open one of the records.
 */
export async function createRecoveryWraps(
  password: string,
  keyRecords: readonly WrappedKeyRecord[],
  kit: RecoveryKitSecret,
): Promise<RecoveryWraps> {
  if (kit.kitId !== (await recoveryKitId(kit.secretBytes))) {
    throw new RecoveryKitMismatchError('the kit id is not the id of this recovery secret');
  }
  const recoveryKey = await deriveRecoveryWrapKey(kit.secretBytes);
  const opener = passwordOpener(password);
  const wraps: RecoveryWrap[] = [];
  for (const keyRecord of keyRecords) {
    const record = parsePrivateKeyRecord(keyRecord.encryptedPrivateKey);
    const signing = signingRecordOf(keyRecord, record);
    const wrapKey = await opener(record);
    const context = (purpose: RecoveryWrapContext['purpose']): RecoveryWrapContext => ({
      kitId: kit.kitId,
      keyId: keyRecord.keyId,
      purpose,
    });
    const privateKey = await openWithWrapKey(record, wrapKey, true);
    const wrap: RecoveryWrap = {
      keyId: keyRecord.keyId,
      encryptedPrivateKey: await sealExported(privateKey, recoveryKey, context(RSA_PURPOSE)),
    };
    if (signing !== undefined) {
      const signingWrapKey = sameDerivation(record, signing) ? wrapKey : await opener(signing);
      const signingKey = await openSigningKeyWithWrapKey(signing, signingWrapKey, true);
      wrap.encryptedSigningKey = await sealExported(
        signingKey,
        recoveryKey,
        context(`signing-key/${signing.algorithm}`),
      );
    }
    wraps.push(wrap);
  }
  return { kitId: kit.kitId, wraps };
}

/**
 * Recovery: opens the kit's wraps with the recovery secret and wraps every private key again under
 * `newPassword` (Argon2id, one new salt, `rev` one higher than each old record's). The key pairs are
 * the same, so every file key, share, pin and signature stays valid. The answer is the body of
 * PUT /users/keys; open it with `unlockUserKeys(newPassword, …)`.
 * @throws {RecoveryKitMismatchError} the served kit is another kit (replaced, or another account's),
 * a key record has no wrap, or a wrap does not open (altered, or moved to another key).
 */
export async function recoverUserKeys(
  secretBytes: Uint8Array,
  keyRecords: readonly WrappedKeyRecord[],
  recovery: RecoveryWraps,
  newPassword: string,
  options: UserKeyWrapOptions = {},
): Promise<WrappedKeyRecord[]> {
  assertPassword(newPassword);
  const kitId = await recoveryKitId(secretBytes);
  if (recovery.kitId !== kitId) {
    throw new RecoveryKitMismatchError('these words belong to a recovery kit that is no longer valid');
  }
  const recoveryKey = await deriveRecoveryWrapKey(secretBytes);
  const parsed = keyRecords.map((keyRecord) => {
    const record = parsePrivateKeyRecord(keyRecord.encryptedPrivateKey);
    return { keyRecord, record, signing: signingRecordOf(keyRecord, record) };
  });
  // One salt and one derivation for all records; each record's rev (in its AAD) is its own + 1.
  const shared = freshParams(options, 1);
  const newWrapKey = await deriveParamsWrapKey(newPassword, shared);
  const result: WrappedKeyRecord[] = [];
  for (const { keyRecord, record, signing } of parsed) {
    const wrap = recovery.wraps.find((candidate) => candidate.keyId === keyRecord.keyId);
    if (wrap === undefined) throw new RecoveryKitMismatchError('the recovery kit does not cover every key');
    const context = (purpose: RecoveryWrapContext['purpose']): RecoveryWrapContext => ({
      kitId,
      keyId: keyRecord.keyId,
      purpose,
    });
    const params = shared.kdf === undefined ? shared : { ...shared, rev: nextRev(record.rev) };
    const pkcs8Bytes = await openRecoveryWrap(wrap.encryptedPrivateKey, recoveryKey, context(RSA_PURPOSE));
    let encryptedPrivateKey: string;
    try {
      encryptedPrivateKey = await sealWithWrapKey(pkcs8Bytes, newWrapKey, {
        ...params,
        ivBytes: crypto.getRandomValues(new Uint8Array(IV_LENGTH)),
      });
    } finally {
      pkcs8Bytes.fill(0);
    }
    // Opening the new record proves the wrap held an RSA 2048 key before anything is uploaded.
    await openWithWrapKey(parsePrivateKeyRecord(encryptedPrivateKey), newWrapKey, false);
    const recovered: WrappedKeyRecord = { keyId: keyRecord.keyId, encryptedPrivateKey };
    if (signing !== undefined) {
      if (wrap.encryptedSigningKey === undefined) {
        throw new RecoveryKitMismatchError('the recovery kit does not cover the signing key');
      }
      recovered.encryptedSigningKey = await recoverSigningKey(
        wrap.encryptedSigningKey,
        signing,
        recoveryKey,
        context(`signing-key/${signing.algorithm}`),
        newWrapKey,
        params,
      );
    }
    result.push(recovered);
  }
  return result;
}

async function recoverSigningKey(
  wrapJson: string,
  signing: SigningKeyRecord,
  recoveryKey: CryptoKey,
  context: RecoveryWrapContext,
  newWrapKey: CryptoKey,
  params: ReturnType<typeof freshParams>,
): Promise<string> {
  const pkcs8Bytes = await openRecoveryWrap(wrapJson, recoveryKey, context);
  let json: string;
  try {
    json = await sealSigningKeyWithWrapKey({ pkcs8Bytes, algorithm: signing.algorithm }, newWrapKey, {
      ...params,
      ivBytes: crypto.getRandomValues(new Uint8Array(IV_LENGTH)),
    });
  } finally {
    pkcs8Bytes.fill(0);
  }
  await openSigningKeyWithWrapKey(parseSigningKeyRecord(json), newWrapKey, false);
  return json;
}

/** Derives each distinct (KDF, salt) once: Coffer's records of one key share them. */
function passwordOpener(password: string): (record: PrivateKeyRecord) => Promise<CryptoKey> {
  const derived: { record: PrivateKeyRecord; wrapKey: CryptoKey }[] = [];
  return async (record) => {
    const known = derived.find((entry) => sameDerivation(entry.record, record));
    if (known !== undefined) return known.wrapKey;
    const wrapKey = await deriveRecordWrapKey(password, record);
    derived.push({ record, wrapKey });
    return wrapKey;
  };
}

function signingRecordOf(
  keyRecord: WrappedKeyRecord,
  record: PrivateKeyRecord,
): SigningKeyRecord | undefined {
  if (keyRecord.encryptedSigningKey === undefined) return undefined;
  const signing = parseSigningKeyRecord(keyRecord.encryptedSigningKey);
  if (signing.rev !== record.rev) {
    throw new InvalidKeyRecordError(
      'the signing key record is of another revision than the private key record',
    );
  }
  return signing;
}

/** Exports an extractable private key as PKCS#8, seals it under the recovery key, zeroes the bytes. */
async function sealExported(
  privateKey: CryptoKey,
  recoveryKey: CryptoKey,
  context: RecoveryWrapContext,
): Promise<string> {
  const pkcs8Bytes = new Uint8Array(await crypto.subtle.exportKey('pkcs8', privateKey));
  try {
    return await sealRecoveryWrap(pkcs8Bytes, recoveryKey, context);
  } finally {
    pkcs8Bytes.fill(0);
  }
}
