import { beforeAll, describe, expect, it } from 'vitest';
import { KeyMismatchError } from './crypto.errors.js';
import {
  exportPrivateKeyPkcs8,
  exportPublicKeyB64,
  generateUserKeyPair,
  importPrivateKeyPkcs8,
} from './key-pair.rsa.js';
import { assertOwnKeyPair, assertOwnKeys, type OwnKeys } from './own-key.check.js';
import { makeIdentity, type TestIdentity } from './testing/identities.js';

let publicKeyB64: string;
let privateKey: CryptoKey;
let otherPublicKeyB64: string;

beforeAll(async () => {
  const pair = await generateUserKeyPair();
  publicKeyB64 = await exportPublicKeyB64(pair.publicKey);
  // Non-extractable, decrypt/unwrapKey only: the form unlockPrivateKey returns.
  privateKey = await importPrivateKeyPkcs8(await exportPrivateKeyPkcs8(pair.privateKey));
  otherPublicKeyB64 = await exportPublicKeyB64((await generateUserKeyPair()).publicKey);
});

describe('assertOwnKeyPair', () => {
  it('accepts the public half of a non-extractable private key', async () => {
    expect(privateKey.extractable).toBe(false);
    await expect(assertOwnKeyPair(publicKeyB64, privateKey)).resolves.toBeUndefined();
  });

  it('refuses a public key swapped for another one with KeyMismatchError', async () => {
    const error = await assertOwnKeyPair(otherPublicKeyB64, privateKey).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KeyMismatchError);
    expect((error as KeyMismatchError).code).toBe('KEY_MISMATCH');
    expect((error as KeyMismatchError).message).toMatch(/not the one that belongs to your private key/);
  });

  it('refuses a served key that is not an RSA key at all', async () => {
    await expect(assertOwnKeyPair('AAAA', privateKey)).rejects.toThrow(KeyMismatchError);
    await expect(assertOwnKeyPair('not base64', privateKey)).rejects.toThrow(KeyMismatchError);
  });
});

describe('assertOwnKeys (the unlock check)', () => {
  let alice: TestIdentity;
  let mallory: TestIdentity;

  beforeAll(async () => {
    [alice, mallory] = await Promise.all([
      makeIdentity('alice@example.com'),
      makeIdentity('mallory@example.com'),
    ]);
  });

  const ownKeys = (
    overrides: Partial<OwnKeys> = {},
    signing: Partial<NonNullable<OwnKeys['signing']>> = {},
  ): OwnKeys => ({
    keyId: alice.keyId,
    email: alice.email,
    publicKeyB64: alice.publicKeyB64,
    privateKey: alice.privateKey,
    signing: {
      signingPublicKeyB64: alice.signingPublicKeyB64,
      signingPrivateKey: alice.signingPrivateKey,
      keyBindingJson: alice.keyBindingJson,
      ...signing,
    },
    ...overrides,
  });

  async function expectMismatch(keys: OwnKeys, message: RegExp): Promise<void> {
    const error = await assertOwnKeys(keys).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KeyMismatchError);
    expect((error as KeyMismatchError).message).toMatch(message);
  }

  it('accepts the genuine record, and a user without a signing key yet', async () => {
    await expect(assertOwnKeys(ownKeys())).resolves.toBeUndefined();
    await expect(assertOwnKeys(ownKeys({ signing: undefined }))).resolves.toBeUndefined();
  });

  it('refuses a swapped RSA public key', async () => {
    await expectMismatch(
      ownKeys({ publicKeyB64: mallory.publicKeyB64 }),
      /not the one that belongs to your private key/,
    );
  });

  it('refuses a swapped signing public key', async () => {
    await expectMismatch(
      ownKeys({}, { signingPublicKeyB64: mallory.signingPublicKeyB64 }),
      /signing public key the server holds for you/,
    );
  });

  it('refuses another key id, another email, a missing or foreign binding', async () => {
    await expectMismatch(ownKeys({ keyId: 'key-2' }), /does not match your keys \(keyId\)/);
    await expectMismatch(ownKeys({ email: 'eve@example.com' }), /does not match your keys \(email\)/);
    await expectMismatch(ownKeys({}, { keyBindingJson: undefined }), /no key binding/);
    await expectMismatch(ownKeys({}, { keyBindingJson: mallory.keyBindingJson }), /key binding is not valid/);
  });
});
