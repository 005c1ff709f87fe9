import type { KeyRecord, PutDriveKeyRequest } from '@coffer/contracts';
import { createDriveKey, unwrapDriveKey } from '@coffer/crypto';
import { KeysTamperedError } from './encryption.errors';

/** The calls the drive key needs (PUT /users/keys/{keyId}/drive-key, and the active record again). */
export interface DriveKeyPort {
  putDriveKey(keyId: string, body: PutDriveKeyRequest): Promise<KeyRecord>;
  active(): Promise<KeyRecord>;
}

/**
 * The user's drive key (issue 31, docs/key-hierarchy.md) for an unlocked key record: the record's
 * `wrappedDriveKey` opened with the private key (the one RSA operation of an unlock), or, for a
 * record without one, a new drive key wrapped to the record's public key and stored once. When
 * another device stored one first (409), that one is opened instead.
 * @returns a non-extractable AES-256-GCM key (encrypt, decrypt, wrapKey, unwrapKey).
 * @throws {KeysTamperedError} the served wrap does not open with this private key.
 */
export async function driveKeyFor(
  record: KeyRecord,
  keys: { privateKey: CryptoKey; publicKey: CryptoKey },
  port: DriveKeyPort,
): Promise<CryptoKey> {
  if (record.wrappedDriveKey !== undefined) return openDriveKey(record.wrappedDriveKey, keys.privateKey);
  const created = await createDriveKey([keys.publicKey]);
  const wrappedDriveKey = created.wrappedDriveKeysB64[0];
  if (wrappedDriveKey === undefined) throw new Error('createDriveKey returned no wrap');
  try {
    await port.putDriveKey(record.keyId, { wrappedDriveKey });
    return created.driveKey;
  } catch (error) {
    if ((error as { status?: unknown } | null)?.status !== 409) throw error;
    const stored = await port.active();
    if (stored.keyId !== record.keyId || stored.wrappedDriveKey === undefined) throw error;
    return openDriveKey(stored.wrappedDriveKey, keys.privateKey);
  }
}

async function openDriveKey(wrappedDriveKeyB64: string, privateKey: CryptoKey): Promise<CryptoKey> {
  try {
    return await unwrapDriveKey(wrappedDriveKeyB64, privateKey);
  } catch (error) {
    throw new KeysTamperedError(
      'The drive key the server holds for this key does not open with your private key: it was altered.',
      { cause: error },
    );
  }
}
