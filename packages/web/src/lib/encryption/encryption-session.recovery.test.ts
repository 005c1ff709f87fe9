import { sessionStorageKeys } from '@coffer/contracts';
import { describe, expect, it } from 'vitest';
import { createSessionFlags } from '../storage/session-flags';
import { createMemoryKeyStore } from '../storage/unlocked-key-store';
import { createEncryptionSession, type EncryptionSessionDeps } from './encryption-session';
import {
  NoRecoveryKitError,
  RecoveryKitReplacedError,
  RecoveryWordsInvalidError,
  UnlockFailedError,
  WrongOldPasswordError,
} from './encryption.errors';
import { FakeApiError, FakeKeysServer, MemoryStorage } from './testing/fake-keys-server';

const PASSWORD = 'Correct-Horse-1';
const NEW_PASSWORD = 'Battery-Staple-2';
const EMAIL = 'alice@example.com';

function harness() {
  const server = new FakeKeysServer();
  const storage = new MemoryStorage();
  const flags = createSessionFlags(() => storage);
  const keyStore = createMemoryKeyStore();
  const open = (overrides: Partial<EncryptionSessionDeps> = {}) =>
    createEncryptionSession({
      keys: server,
      keyStore,
      flags,
      owner: () => 'user-1',
      email: () => EMAIL,
      pbkdf2Iterations: 100_000,
      sleep: () => Promise.resolve(),
      onBackgroundError: () => undefined,
      ...overrides,
    });
  return { server, flags, open };
}

/** The calls that change key records or the kit (a drive key added at unlock is another matter). */
const puts = (server: FakeKeysServer) =>
  server.calls.filter((call) => call === 'PUT /users/keys' || call === 'PUT /users/keys/recovery');

describe('encryption session: change of master unlock key (issue 29)', () => {
  it('sends every record in one call; an older record the old key does not open goes back as it was', async () => {
    const { server, open } = harness();
    const older = harness();
    await older.open().setUp('Another-Key-33');
    await open().setUp(PASSWORD);
    const olderRecord = older.server.records[0];
    if (olderRecord === undefined) throw new Error('no record');
    const leftover = { ...olderRecord, keyId: 'old-leftover', createdAt: '2020-01-01T00:00:00.000Z' };
    server.records.unshift(leftover);
    server.calls.length = 0;

    await open().changePassword(PASSWORD, NEW_PASSWORD);
    expect(puts(server)).toEqual(['PUT /users/keys']);
    expect(server.records[0]?.encryptedPrivateKey).toBe(leftover.encryptedPrivateKey);
    await expect(open().unlock(PASSWORD)).rejects.toBeInstanceOf(UnlockFailedError);
    await open().unlock(NEW_PASSWORD);
  });

  it('a refused call (409, or the network) leaves the old key working and the new one not', async () => {
    const { server, open } = harness();
    await open().setUp(PASSWORD);
    server.rewrapAll = () => Promise.reject(new FakeApiError(409, 'CONFLICT'));
    await expect(open().changePassword(PASSWORD, NEW_PASSWORD)).rejects.toMatchObject({ status: 409 });
    await open().unlock(PASSWORD);
    await expect(open().unlock(NEW_PASSWORD)).rejects.toBeInstanceOf(UnlockFailedError);
  });
});

describe('encryption session: recovery kit (issue 29)', () => {
  it('makes a kit of 24 words; a wrong master unlock key makes none', async () => {
    const { server, open } = harness();
    await open().setUp(PASSWORD);
    await expect(open().createRecoveryKit('Wrong-Horse-22')).rejects.toBeInstanceOf(WrongOldPasswordError);
    expect(server.recovery).toBeNull();

    const kit = await open().createRecoveryKit(PASSWORD);
    expect(kit.words).toHaveLength(24);
    expect(server.recovery?.kitId).toBe(kit.kitId);
    // The server gets wraps, never the words.
    expect(JSON.stringify(server.recovery)).not.toContain(kit.words.join(' '));
    await expect(open().recoveryKitStatus()).resolves.toMatchObject({ kitId: kit.kitId });
  });

  it('recovers with the words: same key pair, a new master unlock key, unlocked', async () => {
    const { server, flags, open } = harness();
    const first = open();
    await first.setUp(PASSWORD);
    const before = first.requireKeys();
    const kit = await first.createRecoveryKit(PASSWORD);
    await first.clear();

    // Typed as a person would: numbered, on several lines, in capitals.
    const typed = kit.words.map((word, index) => `${index + 1}. ${word.toUpperCase()}`).join('\n');
    const session = open();
    await session.checkRecoveryWords(typed);
    await session.recover(typed, NEW_PASSWORD);
    expect(session.isUnlocked()).toBe(true);
    const after = session.requireKeys();
    expect(after.keyVersion).toBe(before.keyVersion);
    expect(after.publicKeyB64).toBe(before.publicKeyB64);
    expect(after.signingPublicKeyB64).toBe(before.signingPublicKeyB64);
    expect(flags.get(sessionStorageKeys.encryptionInitialized)).toBe('true');
    expect(server.records).toHaveLength(1);

    await expect(open().unlock(PASSWORD)).rejects.toBeInstanceOf(UnlockFailedError);
    await open().unlock(NEW_PASSWORD);
    // The kit keeps working after a recovery.
    await open().checkRecoveryWords(kit.words.join(' '));
  });

  it('refuses the words of a replaced kit, before asking for a new key', async () => {
    const { server, open } = harness();
    await open().setUp(PASSWORD);
    const stolen = await open().createRecoveryKit(PASSWORD);
    await open().createRecoveryKit(PASSWORD);
    server.calls.length = 0;

    await expect(open().checkRecoveryWords(stolen.words.join(' '))).rejects.toBeInstanceOf(
      RecoveryKitReplacedError,
    );
    await expect(open().recover(stolen.words.join(' '), NEW_PASSWORD)).rejects.toThrow(
      'This recovery kit has been replaced by a newer one',
    );
    expect(puts(server)).toEqual([]);
    await open().unlock(PASSWORD);
  });

  it('says what is wrong with the words', async () => {
    const { open } = harness();
    await open().setUp(PASSWORD);
    const kit = await open().createRecoveryKit(PASSWORD);
    const session = open();
    await expect(session.checkRecoveryWords(kit.words.slice(1).join(' '))).rejects.toThrow(
      'A recovery kit has 24 words. You entered 23.',
    );
    // The first and last words swapped: every word is a real one, the checksum fails.
    const swapped = [kit.words[23], ...kit.words.slice(1, 23), kit.words[0]];
    if (kit.words[0] !== kit.words[23]) {
      await expect(session.checkRecoveryWords(swapped.join(' '))).rejects.toBeInstanceOf(
        RecoveryWordsInvalidError,
      );
    }
    await expect(session.checkRecoveryWords(['zzzz', ...kit.words.slice(1)].join(' '))).rejects.toThrow(
      'These words do not match a recovery kit. Check the spelling and order of each word.',
    );
  });

  it('says so when the account has no kit', async () => {
    const { open } = harness();
    await open().setUp(PASSWORD);
    const words = Array.from({ length: 24 }, () => 'abandon');
    words[23] = 'art';
    await expect(open().checkRecoveryWords(words.join(' '))).rejects.toBeInstanceOf(NoRecoveryKitError);
  });
});
