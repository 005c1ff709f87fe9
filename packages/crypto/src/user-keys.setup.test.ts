import { afterEach, describe, expect, it, vi } from 'vitest';
import { base64ToBytes, bytesToBase64 } from './base64.codec.js';
import { InvalidKeyRecordError, KdfDowngradeError, WrongPasswordError } from './crypto.errors.js';
import { MIN_PBKDF2_ITERATIONS } from './format.constants.js';
import { generateUserKeyPair } from './key-pair.rsa.js';
import { assertOwnKeyPair, assertOwnSigningKeyPair } from './own-key.check.js';
import { encryptPrivateKey, parsePrivateKeyRecord, unlockPrivateKey } from './private-key.record.js';
import { SIGNING_ALGORITHMS } from './signing-key.pair.js';
import { encryptSigningKey, parseSigningKeyRecord, unlockSigningKey } from './signing-key.record.js';
import { createSigningKeys, createUserKeys, rewrapUserKeys, unlockUserKeys } from './user-keys.setup.js';

const PASSWORD = 'Correct-Horse-9!';
const FAST = { iterations: MIN_PBKDF2_ITERATIONS };

afterEach(() => {
  vi.restoreAllMocks();
});

function withMember(json: string, name: string, value: unknown): string {
  return JSON.stringify({ ...(JSON.parse(json) as object), [name]: value });
}

describe('createUserKeys', () => {
  it.each(SIGNING_ALGORITHMS)(
    'makes both key pairs (%s): one salt and KDF, two IVs, non-extractable usable keys',
    async (signingAlgorithm) => {
      const keys = await createUserKeys(PASSWORD, { ...FAST, signingAlgorithm });
      const rsa = parsePrivateKeyRecord(keys.encryptedPrivateKeyJson);
      const signing = parseSigningKeyRecord(keys.encryptedSigningKeyJson);
      expect(Object.keys(JSON.parse(keys.encryptedSigningKeyJson) as object)).toEqual([
        'iv',
        'salt',
        'data',
        'kdf',
        'alg',
      ]);
      expect(signing.algorithm).toBe(signingAlgorithm);
      expect(keys.signingAlgorithm).toBe(signingAlgorithm);
      expect(signing.saltBytes).toEqual(rsa.saltBytes);
      expect(signing.iterations).toBe(rsa.iterations);
      // One AES-GCM key for both records: the IVs must differ.
      expect(signing.ivBytes).not.toEqual(rsa.ivBytes);
      expect(keys.privateKey.extractable).toBe(false);
      expect(keys.signingPrivateKey.extractable).toBe(false);
      expect(keys.signingPrivateKey.usages).toEqual(['sign']);
      await assertOwnKeyPair(keys.publicKeyB64, keys.privateKey);
      await assertOwnSigningKeyPair(keys.signingPublicKeyB64, keys.signingPrivateKey);
    },
  );
});

describe('unlockUserKeys', () => {
  it('opens both records with one PBKDF2 derivation', async () => {
    const keys = await createUserKeys(PASSWORD, FAST);
    const derive = vi.spyOn(crypto.subtle, 'deriveKey');
    const unlocked = await unlockUserKeys(
      PASSWORD,
      keys.encryptedPrivateKeyJson,
      keys.encryptedSigningKeyJson,
    );
    expect(derive).toHaveBeenCalledTimes(1);
    await assertOwnKeyPair(keys.publicKeyB64, unlocked.privateKey);
    if (unlocked.signingPrivateKey === undefined) throw new Error('no signing key');
    await assertOwnSigningKeyPair(keys.signingPublicKeyB64, unlocked.signingPrivateKey);
  });

  it('opens records with different salts too (two derivations), and the RSA record alone', async () => {
    const keys = await createUserKeys(PASSWORD, FAST);
    const pair = await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify']);
    const separate = await encryptSigningKey(pair.privateKey, PASSWORD, FAST);
    const derive = vi.spyOn(crypto.subtle, 'deriveKey');
    const unlocked = await unlockUserKeys(PASSWORD, keys.encryptedPrivateKeyJson, separate);
    expect(derive).toHaveBeenCalledTimes(2);
    expect(unlocked.signingPrivateKey?.usages).toEqual(['sign']);
    expect((await unlockUserKeys(PASSWORD, keys.encryptedPrivateKeyJson)).signingPrivateKey).toBeUndefined();
  });

  it('fails with WrongPasswordError for a wrong password', async () => {
    const keys = await createUserKeys(PASSWORD, FAST);
    await expect(
      unlockUserKeys('Wrong-Horse-9!', keys.encryptedPrivateKeyJson, keys.encryptedSigningKeyJson),
    ).rejects.toThrow(WrongPasswordError);
    await expect(unlockSigningKey(keys.encryptedSigningKeyJson, 'Wrong-Horse-9!')).rejects.toThrow(
      WrongPasswordError,
    );
  });

  it('refuses a signing record whose alg was changed (the AAD authenticates it)', async () => {
    const keys = await createUserKeys(PASSWORD, { ...FAST, signingAlgorithm: 'Ed25519' });
    const relabelled = withMember(keys.encryptedSigningKeyJson, 'alg', 'ECDSA-P256');
    await expect(unlockSigningKey(relabelled, PASSWORD)).rejects.toThrow(WrongPasswordError);
    await expect(
      unlockSigningKey(withMember(keys.encryptedSigningKeyJson, 'alg', 'RSA'), PASSWORD),
    ).rejects.toThrow(InvalidKeyRecordError);
  });

  it('refuses the RSA record served as the signing record (no AAD there)', async () => {
    const keys = await createUserKeys(PASSWORD, FAST);
    const swapped = withMember(keys.encryptedPrivateKeyJson, 'alg', 'Ed25519');
    await expect(unlockUserKeys(PASSWORD, keys.encryptedPrivateKeyJson, swapped)).rejects.toThrow(
      WrongPasswordError,
    );
  });

  it('refuses a KDF downgrade in the signing record before deriving anything', async () => {
    const keys = await createUserKeys(PASSWORD, FAST);
    const weak = withMember(keys.encryptedSigningKeyJson, 'kdf', {
      name: 'PBKDF2',
      hash: 'SHA-256',
      iterations: 1000,
    });
    const derive = vi.spyOn(crypto.subtle, 'deriveKey');
    await expect(unlockUserKeys(PASSWORD, keys.encryptedPrivateKeyJson, weak)).rejects.toThrow(
      KdfDowngradeError,
    );
    expect(derive).not.toHaveBeenCalled();
  });

  it('treats altered signing key data as a wrong password', async () => {
    const keys = await createUserKeys(PASSWORD, FAST);
    const record = JSON.parse(keys.encryptedSigningKeyJson) as { data: string };
    const data = base64ToBytes(record.data);
    data[3] = (data[3] ?? 0) ^ 1;
    const altered = withMember(keys.encryptedSigningKeyJson, 'data', bytesToBase64(data));
    await expect(unlockSigningKey(altered, PASSWORD)).rejects.toThrow(WrongPasswordError);
  });
});

describe('createSigningKeys (a user set up before signing keys)', () => {
  it('reuses the RSA record salt and KDF, after checking the password', async () => {
    const pair = await generateUserKeyPair();
    const legacy = await encryptPrivateKey(pair.privateKey, PASSWORD, FAST);
    await expect(createSigningKeys('Wrong-Horse-9!', legacy)).rejects.toThrow(WrongPasswordError);
    const signing = await createSigningKeys(PASSWORD, legacy);
    expect(parseSigningKeyRecord(signing.encryptedSigningKeyJson).saltBytes).toEqual(
      parsePrivateKeyRecord(legacy).saltBytes,
    );
    const unlocked = await unlockUserKeys(PASSWORD, legacy, signing.encryptedSigningKeyJson);
    if (unlocked.signingPrivateKey === undefined) throw new Error('no signing key');
    await assertOwnSigningKeyPair(signing.signingPublicKeyB64, unlocked.signingPrivateKey);
  });
});

describe('rewrapUserKeys (password change)', () => {
  it('re-wraps both keys under the new password with a new shared salt', async () => {
    const keys = await createUserKeys(PASSWORD, FAST);
    const newPassword = 'Another-Pass-7?';
    await expect(
      rewrapUserKeys(
        'Wrong-Horse-9!',
        newPassword,
        keys.encryptedPrivateKeyJson,
        keys.encryptedSigningKeyJson,
        FAST,
      ),
    ).rejects.toThrow(WrongPasswordError);
    const rewrapped = await rewrapUserKeys(
      PASSWORD,
      newPassword,
      keys.encryptedPrivateKeyJson,
      keys.encryptedSigningKeyJson,
      FAST,
    );
    const signingJson = rewrapped.encryptedSigningKeyJson ?? '';
    const rsa = parsePrivateKeyRecord(rewrapped.encryptedPrivateKeyJson);
    const signing = parseSigningKeyRecord(signingJson);
    expect(signing.saltBytes).toEqual(rsa.saltBytes);
    expect(signing.ivBytes).not.toEqual(rsa.ivBytes);
    expect(rsa.saltBytes).not.toEqual(parsePrivateKeyRecord(keys.encryptedPrivateKeyJson).saltBytes);
    const unlocked = await unlockUserKeys(newPassword, rewrapped.encryptedPrivateKeyJson, signingJson);
    await assertOwnKeyPair(keys.publicKeyB64, unlocked.privateKey);
    if (unlocked.signingPrivateKey === undefined) throw new Error('no signing key');
    await assertOwnSigningKeyPair(keys.signingPublicKeyB64, unlocked.signingPrivateKey);
    await expect(unlockPrivateKey(rewrapped.encryptedPrivateKeyJson, PASSWORD)).rejects.toThrow(
      WrongPasswordError,
    );
  });
});
