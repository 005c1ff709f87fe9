import type { KeyRecord, PutDriveKeyRequest } from '@coffer/contracts';
import { createDriveKey, signDriveKeyRecord, unwrapDriveKey, verifyDriveKeyRecord } from '@coffer/crypto';
import { KeysTamperedError } from './encryption.errors';

/** The calls the drive key needs (PUT /users/keys/{keyId}/drive-key, and the active record again). */
export interface DriveKeyPort {
  putDriveKey(keyId: string, body: PutDriveKeyRequest): Promise<KeyRecord>;
  active(): Promise<KeyRecord>;
}

/** The unlocked keys the drive key needs: RSA to open or wrap it, the signing key to sign or check it. */
export interface DriveKeyOwnerKeys {
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** Absent on a record without a signing key: no drive key is used or made then. */
  signingPrivateKey?: CryptoKey;
  /** The user's own signing key, checked against the private key at unlock (`assertOwnKeyRecord`). */
  signingPublicKeyB64?: string;
}

/** Words of the refusal of a drive key the user did not sign (the unlock screen shows them). */
export const DRIVE_KEY_NOT_SIGNED =
  'The drive key the server holds for you was not signed by you: someone else may have made it to read what you store. Coffer refused to use it.';

/**
 * The user's drive key (issue 31, docs/key-hierarchy.md) for an unlocked key record: the record's
 * `wrappedDriveKey`, used only when its `driveKeyRecord` is signed by the user's own signing key for
 * this email, key id and wrap (RSA-OAEP wraps to a public key, so anyone, the server included, can
 * make a wrap that opens), then opened with the private key (the one RSA operation of an unlock). A
 * record without one gets a new drive key wrapped to its public key, signed and stored once; when
 * another device stored one first (409), that one is checked and opened instead.
 * @returns a non-extractable AES-256-GCM key (encrypt, decrypt, wrapKey, unwrapKey).
 * @throws {KeysTamperedError} the served wrap is not signed by the user, or does not open.
 * @throws {Error} no signing key or email to sign or check with (the caller goes on without a drive key).
 */
export async function driveKeyFor(
  record: KeyRecord,
  keys: DriveKeyOwnerKeys,
  email: string | null,
  port: DriveKeyPort,
): Promise<CryptoKey> {
  const { signingPrivateKey, signingPublicKeyB64 } = keys;
  if (signingPrivateKey === undefined || signingPublicKeyB64 === undefined || email === null) {
    throw new Error('a drive key needs a signing key and an email to sign and check it with');
  }
  const own = { email, signingPublicKeyB64 };
  if (record.wrappedDriveKey !== undefined) return openDriveKey(record, own, keys.privateKey);
  const created = await createDriveKey([keys.publicKey]);
  const wrappedDriveKey = created.wrappedDriveKeysB64[0];
  if (wrappedDriveKey === undefined) throw new Error('createDriveKey returned no wrap');
  const driveKeyRecord = await signDriveKeyRecord(
    { ownerEmail: email, keyId: record.keyId, wrappedDriveKeyB64: wrappedDriveKey },
    signingPrivateKey,
  );
  try {
    await port.putDriveKey(record.keyId, { wrappedDriveKey, driveKeyRecord });
    return created.driveKey;
  } catch (error) {
    if ((error as { status?: unknown } | null)?.status !== 409) throw error;
    const stored = await port.active();
    if (stored.keyId !== record.keyId || stored.wrappedDriveKey === undefined) throw error;
    return openDriveKey(stored, own, keys.privateKey);
  }
}

async function openDriveKey(
  record: KeyRecord,
  own: { email: string; signingPublicKeyB64: string },
  privateKey: CryptoKey,
): Promise<CryptoKey> {
  const wrappedDriveKeyB64 = record.wrappedDriveKey ?? '';
  const check = await verifyDriveKeyRecord(
    record.driveKeyRecord,
    { ownerEmail: own.email, keyId: record.keyId, wrappedDriveKeyB64 },
    own.signingPublicKeyB64,
  );
  if (check.status !== 'valid') {
    throw new KeysTamperedError(DRIVE_KEY_NOT_SIGNED, { cause: check });
  }
  try {
    return await unwrapDriveKey(wrappedDriveKeyB64, privateKey);
  } catch (error) {
    throw new KeysTamperedError(
      'The drive key the server holds for this key does not open with your private key: it was altered.',
      { cause: error },
    );
  }
}
