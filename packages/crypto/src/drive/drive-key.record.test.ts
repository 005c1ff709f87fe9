import { beforeAll, describe, expect, it } from 'vitest';
import { importPublicKeyB64 } from '../key-pair.rsa.js';
import { makeIdentity, type TestIdentity } from '../testing/identities.js';
import { createDriveKey, unwrapDriveKey } from './drive-key.wrap.js';
import { parseDriveKeyRecord, signDriveKeyRecord, verifyDriveKeyRecord } from './drive-key.record.js';

let alice: TestIdentity;
let mallory: TestIdentity;
let wrappedDriveKeyB64: string;
let recordJson: string;

beforeAll(async () => {
  [alice, mallory] = await Promise.all([
    makeIdentity('alice@example.com'),
    makeIdentity('mallory@example.com'),
  ]);
  const { wrappedDriveKeysB64 } = await createDriveKey([await importPublicKeyB64(alice.publicKeyB64)]);
  wrappedDriveKeyB64 = wrappedDriveKeysB64[0] ?? '';
  recordJson = await signDriveKeyRecord(
    { ownerEmail: alice.email, keyId: alice.keyId, wrappedDriveKeyB64 },
    alice.signingPrivateKey,
  );
});

const served = (wrapped = wrappedDriveKeyB64) => ({
  ownerEmail: 'Alice@example.com',
  keyId: alice.keyId,
  wrappedDriveKeyB64: wrapped,
});

describe('drive key record', () => {
  it('is valid for the wrap the user made', async () => {
    expect(parseDriveKeyRecord(recordJson)).toMatchObject({
      type: 'drive-key',
      ownerEmail: 'alice@example.com',
    });
    expect(await verifyDriveKeyRecord(recordJson, served(), alice.signingPublicKeyB64)).toEqual({
      status: 'valid',
    });
  });

  it('catches a drive key the server made: it opens, but its record does not match or is missing', async () => {
    // Anyone can wrap a key of their choice to Alice's PUBLIC key, and it opens with her private key.
    const { wrappedDriveKeysB64 } = await createDriveKey([await importPublicKeyB64(alice.publicKeyB64)]);
    const planted = wrappedDriveKeysB64[0] ?? '';
    await expect(unwrapDriveKey(planted, alice.privateKey)).resolves.toBeDefined();
    expect(await verifyDriveKeyRecord(recordJson, served(planted), alice.signingPublicKeyB64)).toEqual({
      status: 'mismatch',
      fields: ['wrappedDriveKeySha256Hex'],
    });
    expect(await verifyDriveKeyRecord(undefined, served(planted), alice.signingPublicKeyB64)).toEqual({
      status: 'unsigned',
    });
    const forged = await signDriveKeyRecord(
      { ownerEmail: alice.email, keyId: alice.keyId, wrappedDriveKeyB64: planted },
      mallory.signingPrivateKey,
    );
    expect(await verifyDriveKeyRecord(forged, served(planted), alice.signingPublicKeyB64)).toMatchObject({
      status: 'invalid-signature',
    });
  });

  it('names the key pair and the user', async () => {
    const check = await verifyDriveKeyRecord(
      recordJson,
      { ownerEmail: mallory.email, keyId: 'key-2', wrappedDriveKeyB64 },
      alice.signingPublicKeyB64,
    );
    expect(check).toEqual({ status: 'mismatch', fields: ['ownerEmail', 'keyId'] });
  });
});
