import { KdfDowngradeError, KeyMismatchError, PinSetInvalidError, PinSetRollbackError } from '@coffer/crypto';
import type { KeyRecord } from '@coffer/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertOwnKeyRecord, trustErrorMessage } from './own-keys';
import { makeTrustIdentity, type TrustIdentity } from './testing/trust-identities';

let alice: TrustIdentity;
let mallory: TrustIdentity;
let record: KeyRecord;

beforeAll(async () => {
  [alice, mallory] = await Promise.all([
    makeTrustIdentity('alice@example.com'),
    makeTrustIdentity('mallory@example.com'),
  ]);
  record = {
    keyId: alice.keyId,
    publicKey: alice.publicKeyB64,
    encryptedPrivateKey: '{}',
    createdAt: '2026-01-01T00:00:00.000Z',
    signingPublicKey: alice.signingPublicKeyB64,
    encryptedSigningKey: '{}',
    keyBinding: alice.keyBindingJson,
  };
});

describe('assertOwnKeyRecord', () => {
  const keys = () => ({ privateKey: alice.privateKey, signingPrivateKey: alice.signingPrivateKey });

  it('accepts my record, and a record from before signing keys', async () => {
    await expect(assertOwnKeyRecord(record, alice.email, keys())).resolves.toBeUndefined();
    const legacy: KeyRecord = {
      keyId: record.keyId,
      publicKey: record.publicKey,
      encryptedPrivateKey: '{}',
      createdAt: record.createdAt,
    };
    await expect(
      assertOwnKeyRecord(legacy, alice.email, { privateKey: alice.privateKey }),
    ).resolves.toBeUndefined();
  });

  it('refuses a swapped public key, signing key, binding or key id', async () => {
    for (const swapped of [
      { ...record, publicKey: mallory.publicKeyB64 },
      { ...record, signingPublicKey: mallory.signingPublicKeyB64 },
      { ...record, keyBinding: mallory.keyBindingJson },
      { ...record, keyId: 'key-other' },
    ]) {
      await expect(assertOwnKeyRecord(swapped, alice.email, keys())).rejects.toThrow(KeyMismatchError);
    }
  });

  it('refuses a record whose signing key was removed while this device holds one, or half-served', async () => {
    await expect(
      assertOwnKeyRecord({ ...record, signingPublicKey: undefined }, alice.email, keys()),
    ).rejects.toThrow(KeyMismatchError);
    await expect(assertOwnKeyRecord(record, alice.email, { privateKey: alice.privateKey })).rejects.toThrow(
      KeyMismatchError,
    );
  });
});

describe('trustErrorMessage', () => {
  it('words each attack, and nothing else', () => {
    expect(trustErrorMessage(new KeyMismatchError('x'))).toMatch(/do not belong to you/);
    expect(trustErrorMessage(new KdfDowngradeError('x'))).toMatch(/weaker password protection/);
    expect(trustErrorMessage(new PinSetRollbackError(1, 2))).toMatch(/older copy/);
    expect(trustErrorMessage(new PinSetInvalidError('x'))).toMatch(/changed by someone other than you/);
    expect(trustErrorMessage(new Error('x'))).toBeNull();
  });
});
