import { beforeAll, describe, expect, it } from 'vitest';
import { bytesToBase64 } from '../base64.codec.js';
import { NodeKeyUnwrapError } from '../crypto.errors.js';
import { importPublicKeyB64 } from '../key-pair.rsa.js';
import { makeIdentity, type TestIdentity } from '../testing/identities.js';
import { createDriveKey, rewrapDriveKey, unwrapDriveKey } from './drive-key.wrap.js';
import { createFolderKey, unwrapNodeKey } from './node-key.wrap.js';

let alice: TestIdentity;
let mallory: TestIdentity;

beforeAll(async () => {
  [alice, mallory] = await Promise.all([
    makeIdentity('alice@example.com'),
    makeIdentity('mallory@example.com'),
  ]);
});

const place = { parentNodeId: 'drive', nodeId: '00000000-0000-4000-8000-000000000001' };

describe('drive key', () => {
  it('is made non-extractable, wrapped to each key pair, and opens with the private key', async () => {
    const alicePublic = await importPublicKeyB64(alice.publicKeyB64);
    const { driveKey, wrappedDriveKeysB64 } = await createDriveKey([alicePublic, alicePublic]);
    expect(driveKey.extractable).toBe(false);
    expect(driveKey.usages.sort()).toEqual(['decrypt', 'encrypt', 'unwrapKey', 'wrapKey']);
    expect(wrappedDriveKeysB64).toHaveLength(2);
    // RSA-OAEP is randomized: two wraps of one key differ, and both open to the same key.
    expect(wrappedDriveKeysB64[0]).not.toBe(wrappedDriveKeysB64[1]);

    const folder = await createFolderKey(driveKey, place);
    for (const wrapped of wrappedDriveKeysB64) {
      const opened = await unwrapDriveKey(wrapped, alice.privateKey);
      expect(opened.extractable).toBe(false);
      await expect(unwrapNodeKey(folder.wrappedKeyB64, opened, place, 'folder')).resolves.toBeDefined();
    }
    await expect(crypto.subtle.exportKey('raw', driveKey)).rejects.toThrow();
  });

  it('is re-wrapped to another key pair without leaving WebCrypto', async () => {
    const { driveKey, wrappedDriveKeysB64 } = await createDriveKey([
      await importPublicKeyB64(alice.publicKeyB64),
    ]);
    const [wrapped = ''] = wrappedDriveKeysB64;
    const forMallory = await rewrapDriveKey(
      wrapped,
      alice.privateKey,
      await importPublicKeyB64(mallory.publicKeyB64),
    );
    const opened = await unwrapDriveKey(forMallory, mallory.privateKey);
    const folder = await createFolderKey(driveKey, place);
    await expect(unwrapNodeKey(folder.wrappedKeyB64, opened, place, 'folder')).resolves.toBeDefined();
  });

  it('refuses another key pair, altered bytes and non-base64 with NodeKeyUnwrapError', async () => {
    const { wrappedDriveKeysB64 } = await createDriveKey([await importPublicKeyB64(alice.publicKeyB64)]);
    const [wrapped = ''] = wrappedDriveKeysB64;
    await expect(unwrapDriveKey(wrapped, mallory.privateKey)).rejects.toBeInstanceOf(NodeKeyUnwrapError);
    const flipped = `${wrapped.startsWith('A') ? 'B' : 'A'}${wrapped.slice(1)}`;
    await expect(unwrapDriveKey(flipped, alice.privateKey)).rejects.toMatchObject({
      code: 'NODE_KEY_UNWRAP_FAILED',
    });
    await expect(unwrapDriveKey('not base64!', alice.privateKey)).rejects.toBeInstanceOf(NodeKeyUnwrapError);
  });

  it('refuses a 128-bit key wrapped to the key pair', async () => {
    const short = crypto.getRandomValues(new Uint8Array(16));
    const publicKey = await importPublicKeyB64(alice.publicKeyB64);
    const wrapped = new Uint8Array(await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, publicKey, short));
    await expect(unwrapDriveKey(bytesToBase64(wrapped), alice.privateKey)).rejects.toBeInstanceOf(
      NodeKeyUnwrapError,
    );
  });

  it('needs at least one public key', async () => {
    await expect(createDriveKey([])).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
