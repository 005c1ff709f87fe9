import { beforeAll, describe, expect, it } from 'vitest';
import { RecoveryKitMismatchError, WrongPasswordError } from './crypto.errors.js';
import { assertOwnKeyPair } from './own-key.check.js';
import { parsePrivateKeyRecord } from './private-key.record.js';
import { createRecoveryKit, type NewRecoveryKit } from './recovery-kit.js';
import { createRecoveryWraps, recoverUserKeys, type WrappedKeyRecord } from './recovery-keys.js';
import { parseSigningKeyRecord } from './signing-key.record.js';
import { createUserKeys, rewrapUserKeys, unlockUserKeys, type NewUserKeys } from './user-keys.setup.js';

const PASSWORD = 'Correct-Horse-9!';
const NEW_PASSWORD = 'Brand-New-Key-7?';

let keys: NewUserKeys;
let records: WrappedKeyRecord[];
let kit: NewRecoveryKit;

beforeAll(async () => {
  keys = await createUserKeys(PASSWORD);
  // A second, older key record without a signing key (PBKDF2, as before issue 29).
  const legacy = await createUserKeys(PASSWORD, { iterations: 100_000 });
  records = [
    {
      keyId: 'key-new',
      encryptedPrivateKey: keys.encryptedPrivateKeyJson,
      encryptedSigningKey: keys.encryptedSigningKeyJson,
    },
    { keyId: 'key-old', encryptedPrivateKey: legacy.encryptedPrivateKeyJson },
  ];
  kit = await createRecoveryKit();
}, 60_000);

describe('recovery of a user’s keys', { timeout: 60_000 }, () => {
  // Argon2id at 64 MiB takes ~0.5 s per derivation here, more while other suites run.
  it('wraps every key record for the kit, then recovers the same key pairs under a new password', async () => {
    const recovery = await createRecoveryWraps(PASSWORD, records, kit);
    expect(recovery.kitId).toBe(kit.kitId);
    expect(recovery.wraps.map((wrap) => wrap.keyId)).toEqual(['key-new', 'key-old']);
    expect(recovery.wraps[0]?.encryptedSigningKey).toBeDefined();
    expect(recovery.wraps[1]?.encryptedSigningKey).toBeUndefined();

    const recovered = await recoverUserKeys(kit.secretBytes, records, recovery, NEW_PASSWORD);
    expect(recovered.map((record) => record.keyId)).toEqual(['key-new', 'key-old']);
    const [newest, old] = recovered;
    // rev = old rev + 1: 1 → 2 for the Argon2id record, 0 → 1 for the PBKDF2 one.
    expect(parsePrivateKeyRecord(newest?.encryptedPrivateKey ?? '').rev).toBe(2);
    expect(parseSigningKeyRecord(newest?.encryptedSigningKey ?? '').rev).toBe(2);
    expect(parsePrivateKeyRecord(old?.encryptedPrivateKey ?? '')).toMatchObject({
      rev: 1,
      kdf: { name: 'Argon2id' },
    });
    const unlocked = await unlockUserKeys(
      NEW_PASSWORD,
      newest?.encryptedPrivateKey ?? '',
      newest?.encryptedSigningKey,
    );
    await assertOwnKeyPair(keys.publicKeyB64, unlocked.privateKey);
    await expect(unlockUserKeys(PASSWORD, newest?.encryptedPrivateKey ?? '')).rejects.toThrow(
      WrongPasswordError,
    );
  });

  it('needs the password that opens every record', async () => {
    await expect(createRecoveryWraps('Wrong-Horse-9!', records, kit)).rejects.toThrow(WrongPasswordError);
  });

  it('a replaced kit: the old words no longer recover (the server holds only the new wraps)', async () => {
    const newer = await createRecoveryKit();
    const current = await createRecoveryWraps(PASSWORD, records, newer);
    await expect(recoverUserKeys(kit.secretBytes, records, current, NEW_PASSWORD)).rejects.toThrow(
      RecoveryKitMismatchError,
    );
    // Even with the old kit id kept, the new wraps are sealed under another key.
    await expect(
      recoverUserKeys(kit.secretBytes, records, { ...current, kitId: kit.kitId }, NEW_PASSWORD),
    ).rejects.toThrow(RecoveryKitMismatchError);
  });

  it('refuses wraps moved to another key record, and a kit that does not cover a record', async () => {
    const recovery = await createRecoveryWraps(PASSWORD, records, kit);
    const [first, second] = recovery.wraps;
    if (first === undefined || second === undefined) throw new Error('two wraps expected');
    const swapped = {
      kitId: recovery.kitId,
      wraps: [
        { ...first, encryptedPrivateKey: second.encryptedPrivateKey },
        { ...second, encryptedPrivateKey: first.encryptedPrivateKey },
      ],
    };
    await expect(recoverUserKeys(kit.secretBytes, records, swapped, NEW_PASSWORD)).rejects.toThrow(
      RecoveryKitMismatchError,
    );
    const partial = { kitId: recovery.kitId, wraps: [first] };
    await expect(recoverUserKeys(kit.secretBytes, records, partial, NEW_PASSWORD)).rejects.toThrow(
      /does not cover every key/,
    );
    // The RSA wrap served as the signing wrap: its AAD names another purpose.
    const crossed = {
      kitId: recovery.kitId,
      wraps: [{ ...first, encryptedSigningKey: first.encryptedPrivateKey }, second],
    };
    await expect(recoverUserKeys(kit.secretBytes, records, crossed, NEW_PASSWORD)).rejects.toThrow(
      RecoveryKitMismatchError,
    );
  });

  it('a kit made before a password change still recovers (it wraps the key pairs, not the password)', async () => {
    const recovery = await createRecoveryWraps(PASSWORD, records.slice(0, 1), kit);
    const changed = await rewrapUserKeys(
      PASSWORD,
      'Other-Horse-9!',
      keys.encryptedPrivateKeyJson,
      keys.encryptedSigningKeyJson,
    );
    const changedRecords: WrappedKeyRecord[] = [
      {
        keyId: 'key-new',
        encryptedPrivateKey: changed.encryptedPrivateKeyJson,
        encryptedSigningKey: changed.encryptedSigningKeyJson,
      },
    ];
    const [recovered] = await recoverUserKeys(kit.secretBytes, changedRecords, recovery, NEW_PASSWORD);
    expect(parsePrivateKeyRecord(recovered?.encryptedPrivateKey ?? '').rev).toBe(3);
  });
});
