import { beforeAll, describe, expect, it } from 'vitest';
import {
  InvalidArgumentError,
  InvalidKeyRecordError,
  KdfDowngradeError,
  WrongPasswordError,
} from './crypto.errors.js';
import { ARGON2ID_PARAMS, MAX_ARGON2ID } from './kdf.argon2.js';
import { parsePrivateKeyRecord, privateKeyRecordAad, unlockPrivateKey } from './private-key.record.js';
import { parseSigningKeyRecord, signingKeyRecordAad, unlockSigningKey } from './signing-key.record.js';
import { createSigningKeys, createUserKeys, rewrapUserKeys, unlockUserKeys } from './user-keys.setup.js';
import { recordNeedsUpgrade } from './key-record.upgrade.js';

// Argon2id key records (issue 29): what set-up, change and upgrade write, and what readers refuse.
const PASSWORD = 'Correct-Horse-9!';

type Json = Record<string, unknown>;
const edit = (json: string, change: (record: Json) => void): string => {
  const record = JSON.parse(json) as Json;
  change(record);
  return JSON.stringify(record);
};

let keys: Awaited<ReturnType<typeof createUserKeys>>;

beforeAll(async () => {
  keys = await createUserKeys(PASSWORD);
}, 60_000);

describe('Argon2id key records', { timeout: 60_000 }, () => {
  // Argon2id at 64 MiB takes ~0.5 s per derivation here, more while other suites run.
  it('set-up writes Argon2id records with rev 1, in the documented member order, one salt for both', () => {
    const rsa = JSON.parse(keys.encryptedPrivateKeyJson) as Json;
    const signing = JSON.parse(keys.encryptedSigningKeyJson) as Json;
    expect(Object.keys(rsa)).toEqual(['iv', 'salt', 'data', 'kdf', 'rev']);
    expect(Object.keys(signing)).toEqual(['iv', 'salt', 'data', 'kdf', 'alg', 'rev']);
    expect(rsa.kdf).toEqual({ name: 'Argon2id', version: 19, memoryKiB: 65536, passes: 3, parallelism: 1 });
    expect(rsa.rev).toBe(1);
    expect(signing.rev).toBe(1);
    expect(signing.salt).toBe(rsa.salt);
    expect(signing.kdf).toEqual(rsa.kdf);
    expect(signing.iv).not.toBe(rsa.iv);
    expect(parsePrivateKeyRecord(keys.encryptedPrivateKeyJson)).toMatchObject({ rev: 1, hasKdf: true });
    expect(recordNeedsUpgrade(keys.encryptedPrivateKeyJson)).toBe(false);
  });

  it('unlocks both records with one password, and refuses a wrong one', async () => {
    const unlocked = await unlockUserKeys(
      PASSWORD,
      keys.encryptedPrivateKeyJson,
      keys.encryptedSigningKeyJson,
    );
    expect(unlocked.privateKey.extractable).toBe(false);
    expect(unlocked.signingPrivateKey?.usages).toEqual(['sign']);
    await expect(unlockPrivateKey(keys.encryptedPrivateKeyJson, 'Wrong-Horse-9!')).rejects.toThrow(
      WrongPasswordError,
    );
  });

  it('authenticates rev: a changed rev fails the tag (RSA and signing records)', async () => {
    const rsa = edit(keys.encryptedPrivateKeyJson, (r) => (r.rev = 7));
    const signing = edit(keys.encryptedSigningKeyJson, (r) => (r.rev = 7));
    await expect(unlockPrivateKey(rsa, PASSWORD)).rejects.toThrow(WrongPasswordError);
    await expect(unlockSigningKey(signing, PASSWORD)).rejects.toThrow(WrongPasswordError);
    expect(new TextDecoder().decode(privateKeyRecordAad(3))).toBe('coffer-v1/private-key/rev/3');
    expect(new TextDecoder().decode(signingKeyRecordAad('Ed25519', 3))).toBe(
      'coffer-v1/signing-key/Ed25519/rev/3',
    );
  });

  it('refuses a signing record of another revision than the RSA record', async () => {
    const signing = edit(keys.encryptedSigningKeyJson, (r) => (r.rev = 2));
    await expect(unlockUserKeys(PASSWORD, keys.encryptedPrivateKeyJson, signing)).rejects.toThrow(
      InvalidKeyRecordError,
    );
  });

  it.each([
    ['less memory', { memoryKiB: 19_456 }],
    ['fewer passes', { passes: 2 }],
    ['another version', { version: 16 }],
  ])(
    'refuses a served record with weaker Argon2id (%s) with KdfDowngradeError, before deriving',
    async (_, weaker) => {
      const weak = edit(keys.encryptedPrivateKeyJson, (r) => (r.kdf = { ...(r.kdf as Json), ...weaker }));
      expect(() => parsePrivateKeyRecord(weak)).toThrow(KdfDowngradeError);
      const started = performance.now();
      await expect(unlockUserKeys(PASSWORD, weak, keys.encryptedSigningKeyJson)).rejects.toThrow(
        KdfDowngradeError,
      );
      // Refused while parsing: no 64 MiB derivation ran.
      expect(performance.now() - started).toBeLessThan(100);
    },
  );

  it('refuses unknown KDF names (downgrade) and absurd or malformed parameters (invalid record)', () => {
    const named = edit(keys.encryptedPrivateKeyJson, (r) => (r.kdf = { ...(r.kdf as Json), name: 'scrypt' }));
    expect(() => parsePrivateKeyRecord(named)).toThrow(KdfDowngradeError);
    for (const absurd of [
      { memoryKiB: MAX_ARGON2ID.memoryKiB + 1 },
      { passes: MAX_ARGON2ID.passes + 1 },
      { parallelism: MAX_ARGON2ID.parallelism + 1 },
      { parallelism: 0 },
      { memoryKiB: '65536' },
    ]) {
      const record = edit(keys.encryptedPrivateKeyJson, (r) => (r.kdf = { ...(r.kdf as Json), ...absurd }));
      expect(() => parsePrivateKeyRecord(record)).toThrow(InvalidKeyRecordError);
    }
  });

  it('refuses Argon2id records without a valid rev, and PBKDF2 records with one', async () => {
    for (const rev of [undefined, 0, -1, 1.5, '1']) {
      const record = edit(keys.encryptedPrivateKeyJson, (r) => (r.rev = rev));
      expect(() => parsePrivateKeyRecord(record)).toThrow(InvalidKeyRecordError);
    }
    const legacy = await createUserKeys(PASSWORD, { iterations: 100_000 });
    const withRev = edit(legacy.encryptedPrivateKeyJson, (r) => (r.rev = 1));
    expect(() => parsePrivateKeyRecord(withRev)).toThrow(InvalidKeyRecordError);
  });

  it('an Argon2id record passed off as PBKDF2 (kdf replaced, rev dropped) does not open', async () => {
    const forged = edit(keys.encryptedPrivateKeyJson, (r) => {
      r.kdf = { name: 'PBKDF2', hash: 'SHA-256', iterations: 100_000 };
      delete r.rev;
    });
    await expect(unlockPrivateKey(forged, PASSWORD)).rejects.toThrow(WrongPasswordError);
  });

  it('a password change writes rev + 1 under a new salt; the old password no longer opens the new records', async () => {
    const changed = await rewrapUserKeys(
      PASSWORD,
      'New-Horse-10!',
      keys.encryptedPrivateKeyJson,
      keys.encryptedSigningKeyJson,
    );
    const rsa = parsePrivateKeyRecord(changed.encryptedPrivateKeyJson);
    const signing = parseSigningKeyRecord(changed.encryptedSigningKeyJson ?? '');
    expect([rsa.rev, signing.rev]).toEqual([2, 2]);
    expect(rsa.saltBytes).toEqual(signing.saltBytes);
    expect(rsa.saltBytes).not.toEqual(parsePrivateKeyRecord(keys.encryptedPrivateKeyJson).saltBytes);
    await expect(unlockPrivateKey(changed.encryptedPrivateKeyJson, PASSWORD)).rejects.toThrow(
      WrongPasswordError,
    );
    const unlocked = await unlockUserKeys(
      'New-Horse-10!',
      changed.encryptedPrivateKeyJson,
      changed.encryptedSigningKeyJson,
    );
    expect(unlocked.signingPrivateKey).toBeDefined();
  });

  it('upgrades a PBKDF2 record (with or without kdf) to Argon2id rev 1 at the same password', async () => {
    const legacy = await createUserKeys(PASSWORD, { iterations: 100_000 });
    const spec = edit(legacy.encryptedPrivateKeyJson, (r) => delete r.kdf);
    for (const json of [legacy.encryptedPrivateKeyJson, spec]) expect(recordNeedsUpgrade(json)).toBe(true);
    const upgraded = await rewrapUserKeys(
      PASSWORD,
      PASSWORD,
      legacy.encryptedPrivateKeyJson,
      legacy.encryptedSigningKeyJson,
    );
    expect(parsePrivateKeyRecord(upgraded.encryptedPrivateKeyJson)).toMatchObject({
      rev: 1,
      kdf: ARGON2ID_PARAMS,
    });
    expect(parseSigningKeyRecord(upgraded.encryptedSigningKeyJson ?? '').rev).toBe(1);
    expect(recordNeedsUpgrade(upgraded.encryptedPrivateKeyJson)).toBe(false);
  });

  it('a legacy user’s new signing record follows the RSA record’s derivation and revision', async () => {
    const signing = await createSigningKeys(PASSWORD, keys.encryptedPrivateKeyJson);
    const record = JSON.parse(signing.encryptedSigningKeyJson) as Json;
    expect(record.rev).toBe(1);
    expect(record.kdf).toEqual(ARGON2ID_PARAMS);
  });

  it('writers refuse weaker Argon2id parameters than readers accept', async () => {
    await expect(
      createUserKeys(PASSWORD, { argon2id: { ...ARGON2ID_PARAMS, memoryKiB: 1024 } }),
    ).rejects.toThrow(InvalidArgumentError);
  });
});
