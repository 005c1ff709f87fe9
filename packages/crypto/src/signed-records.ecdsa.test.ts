import { beforeAll, describe, expect, it } from 'vitest';
import { PinSetInvalidError } from './crypto.errors.js';
import { generateFileKey, wrapFileKey } from './file-key.wrap.js';
import { signFileManifest, verifyFileManifest } from './file-manifest.record.js';
import { verifyKeyBinding } from './key-binding.record.js';
import { importPublicKeyB64 } from './key-pair.rsa.js';
import { assertOwnKeys } from './own-key.check.js';
import { emptyPinSet, openPinSet, pinContact, sealPinSet } from './pin-set.record.js';
import { signShareGrant, verifyShareGrant } from './share-grant.record.js';
import { makeIdentity, type TestIdentity } from './testing/identities.js';

// Browsers without Ed25519 get ECDSA P-256 keys: every record must work the same with them, and
// keys of the two algorithms must never verify each other's signatures.

let alice: TestIdentity;
let bob: TestIdentity;
let edAlice: TestIdentity;

beforeAll(async () => {
  [alice, bob, edAlice] = await Promise.all([
    makeIdentity('alice@example.com', 'key-1', 'ECDSA-P256'),
    makeIdentity('bob@example.com', 'key-2', 'ECDSA-P256'),
    makeIdentity('alice@example.com', 'key-1', 'Ed25519'),
  ]);
});

describe('signed records with ECDSA P-256 signing keys', () => {
  it('key binding and the unlock check', async () => {
    expect(JSON.parse(alice.keyBindingJson)).toMatchObject({ signingAlgorithm: 'ECDSA-P256' });
    const fields = {
      email: alice.email,
      keyId: alice.keyId,
      publicKeyB64: alice.publicKeyB64,
      signingPublicKeyB64: alice.signingPublicKeyB64,
    };
    expect(await verifyKeyBinding(alice.keyBindingJson, fields)).toEqual({ status: 'valid' });
    expect(
      (
        await verifyKeyBinding(alice.keyBindingJson, {
          ...fields,
          signingPublicKeyB64: edAlice.signingPublicKeyB64,
        })
      ).status,
    ).toBe('invalid-signature');
    await expect(
      assertOwnKeys({
        ...fields,
        privateKey: alice.privateKey,
        signing: {
          signingPublicKeyB64: alice.signingPublicKeyB64,
          signingPrivateKey: alice.signingPrivateKey,
          keyBindingJson: alice.keyBindingJson,
        },
      }),
    ).resolves.toBeUndefined();
  });

  it('manifest and share grant', async () => {
    const ownerCopy = await wrapFileKey(
      await generateFileKey(),
      await importPublicKeyB64(alice.publicKeyB64),
    );
    const file = { ownerEmail: alice.email, name: 'a.txt', contentType: 'text/plain', size: 3 };
    const manifestJson = await signFileManifest(
      { ...file, ownerKeyId: alice.keyId, ownerEncryptedFileKeyB64: ownerCopy },
      alice.signingPrivateKey,
    );
    expect(await verifyFileManifest(manifestJson, file, alice.signingPublicKeyB64)).toEqual({
      status: 'valid',
    });
    expect((await verifyFileManifest(manifestJson, file, edAlice.signingPublicKeyB64)).status).toBe(
      'invalid-signature',
    );
    const grantFields = {
      fileId: 'file-1',
      ownerEmail: alice.email,
      recipientEmail: bob.email,
      recipientKeyId: bob.keyId,
      recipientPublicKeyB64: bob.publicKeyB64,
      encryptedFileKeyB64: ownerCopy,
      manifestJson,
    };
    const grant = await signShareGrant(grantFields, alice.signingPrivateKey);
    expect(await verifyShareGrant(grant, grantFields, alice.signingPublicKeyB64)).toEqual({
      status: 'valid',
    });
    expect((await verifyShareGrant(grant, grantFields, bob.signingPublicKeyB64)).status).toBe(
      'invalid-signature',
    );
  });

  it('pin set', async () => {
    const pins = await pinContact(
      emptyPinSet(),
      bob.email,
      { publicKeyB64: bob.publicKeyB64, signingPublicKeyB64: bob.signingPublicKeyB64 },
      'tofu',
    );
    const sealed = await sealPinSet(pins, {
      publicKeyB64: alice.publicKeyB64,
      signingPrivateKey: alice.signingPrivateKey,
    });
    expect(
      await openPinSet(sealed, {
        privateKey: alice.privateKey,
        signingPublicKeyB64: alice.signingPublicKeyB64,
      }),
    ).toEqual(pins);
    await expect(
      openPinSet(sealed, { privateKey: alice.privateKey, signingPublicKeyB64: bob.signingPublicKeyB64 }),
    ).rejects.toThrow(PinSetInvalidError);
  });
});
