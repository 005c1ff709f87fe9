import { beforeAll, describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64 } from './base64.codec.js';
import {
  InvalidArgumentError,
  InvalidKeyRecordError,
  KdfDowngradeError,
  WrongPasswordError,
} from './crypto.errors.js';
import { LEGACY_PBKDF2_ITERATIONS, MIN_PBKDF2_ITERATIONS, PBKDF2_ITERATIONS } from './format.constants.js';
import { generateUserKeyPair } from './key-pair.rsa.js';
import {
  encryptPrivateKey,
  parsePrivateKeyRecord,
  rewrapPrivateKey,
  sealPrivateKeyRecord,
  unlockPrivateKey,
} from './private-key.record.js';
import { createUserKeys } from './user-keys.setup.js';

// The lowest iterations readers accept keep the suite fast; the default (600000) is exercised once.
const FAST = { iterations: MIN_PBKDF2_ITERATIONS };
const PASSWORD = 'Correct-Horse-9!';

let keyPair: CryptoKeyPair;
let recordJson: string;

beforeAll(async () => {
  keyPair = await generateUserKeyPair();
  recordJson = await encryptPrivateKey(keyPair.privateKey, PASSWORD, FAST);
});

/** Proves `privateKey` is the private half of `keyPair`. */
async function expectPrivateHalf(privateKey: CryptoKey): Promise<void> {
  const secret = crypto.getRandomValues(new Uint8Array(32));
  const encrypted = await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, keyPair.publicKey, secret);
  const decrypted = await crypto.subtle.decrypt({ name: 'RSA-OAEP' }, privateKey, encrypted);
  expect(new Uint8Array(decrypted)).toEqual(secret);
}

describe('private key record', () => {
  it('has the documented shape: iv, salt, data, kdf in that order', () => {
    const record = JSON.parse(recordJson) as Record<string, unknown>;
    expect(Object.keys(record)).toEqual(['iv', 'salt', 'data', 'kdf']);
    expect(record.kdf).toEqual({ name: 'PBKDF2', hash: 'SHA-256', iterations: 100_000 });
    const parsed = parsePrivateKeyRecord(recordJson);
    expect(parsed.ivBytes.length).toBe(12);
    expect(parsed.saltBytes.length).toBe(16);
    expect(parsed.hasKdf).toBe(true);
    expect(parsed.iterations).toBe(100_000);
  });

  it('draws a fresh salt and IV for every record', async () => {
    const again = parsePrivateKeyRecord(await encryptPrivateKey(keyPair.privateKey, PASSWORD, FAST));
    const first = parsePrivateKeyRecord(recordJson);
    expect(again.saltBytes).not.toEqual(first.saltBytes);
    expect(again.ivBytes).not.toEqual(first.ivBytes);
  });

  it('unlocks to a non-extractable decrypt/unwrapKey key of the same pair', async () => {
    const privateKey = await unlockPrivateKey(recordJson, PASSWORD);
    expect(privateKey.extractable).toBe(false);
    expect([...privateKey.usages].sort()).toEqual(['decrypt', 'unwrapKey']);
    await expectPrivateHalf(privateKey);
  });

  it(`uses ${PBKDF2_ITERATIONS} iterations by default`, async () => {
    const json = await encryptPrivateKey(keyPair.privateKey, PASSWORD);
    expect(parsePrivateKeyRecord(json).iterations).toBe(PBKDF2_ITERATIONS);
    await expectPrivateHalf(await unlockPrivateKey(json, PASSWORD));
  });

  it(`unlocks a spec-style record without kdf with ${LEGACY_PBKDF2_ITERATIONS} iterations`, async () => {
    const full = JSON.parse(
      await sealPrivateKeyRecord(keyPair.privateKey, PASSWORD, {
        iterations: LEGACY_PBKDF2_ITERATIONS,
        saltBytes: crypto.getRandomValues(new Uint8Array(16)),
        ivBytes: crypto.getRandomValues(new Uint8Array(12)),
      }),
    ) as Record<string, unknown>;
    const legacyJson = JSON.stringify({ iv: full.iv, salt: full.salt, data: full.data });
    expect(parsePrivateKeyRecord(legacyJson)).toMatchObject({
      hasKdf: false,
      iterations: LEGACY_PBKDF2_ITERATIONS,
    });
    await expectPrivateHalf(await unlockPrivateKey(legacyJson, PASSWORD));
    await expect(unlockPrivateKey(legacyJson, 'wrong')).rejects.toThrow(WrongPasswordError);
  });

  it('fails with WrongPasswordError for a wrong or empty password', async () => {
    const error = await unlockPrivateKey(recordJson, 'Correct-Horse-8!').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WrongPasswordError);
    expect((error as WrongPasswordError).code).toBe('WRONG_PASSWORD');
    await expect(unlockPrivateKey(recordJson, '')).rejects.toThrow(WrongPasswordError);
  });

  it('treats altered data as a wrong password (GCM cannot tell them apart)', async () => {
    const record = JSON.parse(recordJson) as { data: string };
    const data = base64ToBytes(record.data);
    data[10] = (data[10] ?? 0) ^ 1;
    const altered = JSON.stringify({ ...record, data: bytesToBase64(data) });
    await expect(unlockPrivateKey(altered, PASSWORD)).rejects.toThrow(WrongPasswordError);
  });

  it.each([
    ['not JSON', '{'],
    ['an array', '[]'],
    ['null', 'null'],
    ['missing data', '{"iv":"AAAAAAAAAAAAAAAA","salt":"AAAAAAAAAAAAAAAAAAAAAA=="}'],
    ['a numeric iv', '{"iv":1,"salt":"AAAA","data":"AAAAAAAAAAAAAAAAAAAAAAAAAAAA"}'],
    ['bad base64', '{"iv":"AA!A","salt":"AAAA","data":"AAAAAAAAAAAAAAAAAAAAAAAAAAAA"}'],
    ['an empty iv', '{"iv":"","salt":"AAAA","data":"AAAAAAAAAAAAAAAAAAAAAAAAAAAA"}'],
    ['data shorter than a tag', '{"iv":"AAAA","salt":"AAAA","data":"AAAA"}'],
  ])('rejects a record that is %s with InvalidKeyRecordError', async (_, json) => {
    const error = await unlockPrivateKey(json, PASSWORD).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidKeyRecordError);
    expect((error as InvalidKeyRecordError).code).toBe('INVALID_KEY_RECORD');
  });

  it.each([
    { name: 'PBKDF2', hash: 'SHA-256', iterations: 0 },
    { name: 'PBKDF2', hash: 'SHA-256', iterations: 1.5 },
    { name: 'PBKDF2', hash: 'SHA-256', iterations: '1000' },
    { name: 'PBKDF2', hash: 'SHA-256', iterations: 10_000_001 },
    'PBKDF2',
    null,
  ])('rejects kdf %j with InvalidKeyRecordError', async (kdf) => {
    const record = { ...(JSON.parse(recordJson) as object), kdf };
    await expect(unlockPrivateKey(JSON.stringify(record), PASSWORD)).rejects.toThrow(InvalidKeyRecordError);
  });

  it.each([
    { name: 'PBKDF2', hash: 'SHA-256', iterations: 99_999 },
    { name: 'PBKDF2', hash: 'SHA-256', iterations: 1 },
    { name: 'scrypt', hash: 'SHA-256', iterations: 100_000 },
    { name: 'PBKDF2', hash: 'SHA-1', iterations: 600_000 },
    { name: 'pbkdf2', hash: 'SHA-256', iterations: 600_000 },
    { hash: 'SHA-256', iterations: 600_000 },
  ])('refuses the downgraded kdf %j with KdfDowngradeError, before deriving', async (kdf) => {
    const record = JSON.stringify({ ...(JSON.parse(recordJson) as object), kdf });
    // A record with a bad kdf must fail in parsing, so nothing is derived from the password.
    expect(() => parsePrivateKeyRecord(record)).toThrow(KdfDowngradeError);
    const error = await unlockPrivateKey(record, PASSWORD).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KdfDowngradeError);
    expect((error as KdfDowngradeError).code).toBe('KDF_DOWNGRADE');
    await expect(rewrapPrivateKey(record, PASSWORD, 'Another-Pass-7?')).rejects.toThrow(KdfDowngradeError);
  });

  it('accepts exactly the minimum of 100000 iterations (the record still unlocks)', async () => {
    expect(parsePrivateKeyRecord(recordJson).iterations).toBe(MIN_PBKDF2_ITERATIONS);
    await expectPrivateHalf(await unlockPrivateKey(recordJson, PASSWORD));
  });

  it('rejects a record that opens but does not hold a private key', async () => {
    const json = await sealPrivateKeyRecord(new TextEncoder().encode('not a key'), PASSWORD, {
      iterations: MIN_PBKDF2_ITERATIONS,
      saltBytes: new Uint8Array(16),
      ivBytes: new Uint8Array(12),
    });
    await expect(unlockPrivateKey(json, PASSWORD)).rejects.toThrow(InvalidKeyRecordError);
  });

  it('validates its own inputs', async () => {
    await expect(encryptPrivateKey(keyPair.privateKey, '', FAST)).rejects.toThrow(InvalidArgumentError);
    await expect(encryptPrivateKey(keyPair.privateKey, PASSWORD, { iterations: 0 })).rejects.toThrow(
      InvalidArgumentError,
    );
    // A writer never produces a record that readers refuse as a downgrade.
    await expect(encryptPrivateKey(keyPair.privateKey, PASSWORD, { iterations: 99_999 })).rejects.toThrow(
      InvalidArgumentError,
    );
  });
});

describe('rewrapPrivateKey (password change)', () => {
  it('keeps the same key pair under the new password, with fresh salt and IV', async () => {
    const newPassword = 'Another-Pass-7?';
    const rewrapped = await rewrapPrivateKey(recordJson, PASSWORD, newPassword, FAST);
    const before = parsePrivateKeyRecord(recordJson);
    const after = parsePrivateKeyRecord(rewrapped);
    expect(after.saltBytes).not.toEqual(before.saltBytes);
    expect(after.ivBytes).not.toEqual(before.ivBytes);

    // Something encrypted to the public key before the change still opens after it.
    const secret = crypto.getRandomValues(new Uint8Array(32));
    const encrypted = await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, keyPair.publicKey, secret);
    const privateKey = await unlockPrivateKey(rewrapped, newPassword);
    expect(privateKey.extractable).toBe(false);
    expect(new Uint8Array(await crypto.subtle.decrypt({ name: 'RSA-OAEP' }, privateKey, encrypted))).toEqual(
      secret,
    );

    await expect(unlockPrivateKey(rewrapped, PASSWORD)).rejects.toThrow(WrongPasswordError);
  });

  it('requires the correct old password', async () => {
    await expect(rewrapPrivateKey(recordJson, 'wrong', 'Another-Pass-7?', FAST)).rejects.toThrow(
      WrongPasswordError,
    );
  });

  it('upgrades a record without kdf to one with kdf', async () => {
    const full = JSON.parse(
      await sealPrivateKeyRecord(keyPair.privateKey, PASSWORD, {
        iterations: LEGACY_PBKDF2_ITERATIONS,
        saltBytes: crypto.getRandomValues(new Uint8Array(16)),
        ivBytes: crypto.getRandomValues(new Uint8Array(12)),
      }),
    ) as Record<string, unknown>;
    const legacyJson = JSON.stringify({ iv: full.iv, salt: full.salt, data: full.data });
    const upgraded = await rewrapPrivateKey(legacyJson, PASSWORD, PASSWORD, { iterations: 200_000 });
    expect(parsePrivateKeyRecord(upgraded)).toMatchObject({ hasKdf: true, iterations: 200_000 });
    await expectPrivateHalf(await unlockPrivateKey(upgraded, PASSWORD));
  });
});

describe('createUserKeys', () => {
  it('returns an uploadable record and a usable non-extractable private key', async () => {
    const keys = await createUserKeys(PASSWORD, FAST);
    expect(keys.privateKey.extractable).toBe(false);
    const secret = crypto.getRandomValues(new Uint8Array(32));
    const encrypted = await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, keys.publicKey, secret);
    const reopened = await unlockPrivateKey(keys.encryptedPrivateKeyJson, PASSWORD);
    expect(new Uint8Array(await crypto.subtle.decrypt({ name: 'RSA-OAEP' }, reopened, encrypted))).toEqual(
      secret,
    );
    expect(keys.publicKeyB64.length).toBeGreaterThan(300);
  });
});
