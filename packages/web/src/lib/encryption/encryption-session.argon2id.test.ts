import { KeyRollbackError, parsePrivateKeyRecord } from '@coffer/crypto';
import { describe, expect, it, vi } from 'vitest';
import { createSessionFlags } from '../storage/session-flags';
import { createMemoryKeyStore } from '../storage/unlocked-key-store';
import { createEncryptionSession, type EncryptionSessionDeps } from './encryption-session';
import { KeysTamperedError, UnlockFailedError } from './encryption.errors';
import { createKeyRevStore, memoryRevStorage } from './key-rev.store';
import { FakeKeysServer, MemoryStorage } from './testing/fake-keys-server';

// Issue 29: PBKDF2 records become Argon2id records at the next unlock, and the rollback guard refuses
// a served copy older than one this browser has opened or written.
const PASSWORD = 'Correct-Horse-1';
const NEW_PASSWORD = 'Battery-Staple-2';

function harness() {
  const server = new FakeKeysServer();
  const storage = new MemoryStorage();
  const flags = createSessionFlags(() => storage);
  const keyStore = createMemoryKeyStore();
  const keyRevs = createKeyRevStore(memoryRevStorage());
  const open = (overrides: Partial<EncryptionSessionDeps> = {}) =>
    createEncryptionSession({
      keys: server,
      keyStore,
      flags,
      keyRevs,
      owner: () => 'user-1',
      email: () => 'alice@example.com',
      sleep: () => Promise.resolve(),
      onBackgroundError: () => undefined,
      ...overrides,
    });
  return { server, open, keyRevs };
}

describe('encryption session: Argon2id upgrade and rollback guard (issue 29)', { timeout: 60_000 }, () => {
  it('re-wraps a PBKDF2 record as Argon2id rev 1 after unlocking; the PBKDF2 copy is refused from then on', async () => {
    const { server, open, keyRevs } = harness();
    await open({ pbkdf2Iterations: 100_000 }).setUp(PASSWORD);
    const pbkdf2Copy = { ...server.records[0] } as NonNullable<(typeof server.records)[0]>;
    expect(parsePrivateKeyRecord(pbkdf2Copy.encryptedPrivateKey).kdf.name).toBe('PBKDF2');

    await open().unlock(PASSWORD);
    await vi.waitFor(
      () => {
        expect(parsePrivateKeyRecord(server.records[0]?.encryptedPrivateKey ?? '')).toMatchObject({
          kdf: { name: 'Argon2id' },
          rev: 1,
        });
      },
      { timeout: 20_000 },
    );
    expect(keyRevs.known('user-1', pbkdf2Copy.keyId)).toBe(1);
    await open().unlock(PASSWORD);

    // The server serves the PBKDF2 record it kept: refused before the password is tried.
    server.records[0] = pbkdf2Copy;
    const attempt = open().unlock(PASSWORD);
    await expect(attempt).rejects.toBeInstanceOf(KeysTamperedError);
    await expect(attempt).rejects.toThrow(/older copy of your keys/);
    await expect(attempt.catch((error: unknown) => (error as Error).cause)).resolves.toBeInstanceOf(
      KeyRollbackError,
    );
  });

  it('after a change of master unlock key, the old copy served back is refused (old key or not)', async () => {
    const { server, open, keyRevs } = harness();
    await open().setUp(PASSWORD);
    const before = { ...server.records[0] } as NonNullable<(typeof server.records)[0]>;
    await open().changePassword(PASSWORD, NEW_PASSWORD);
    expect(keyRevs.known('user-1', before.keyId)).toBe(2);
    server.records[0] = before;
    await expect(open().unlock(PASSWORD)).rejects.toBeInstanceOf(KeysTamperedError);
    await expect(open().unlock(NEW_PASSWORD)).rejects.toBeInstanceOf(KeysTamperedError);
  });

  it('a browser that never saw the newer record accepts the old copy: what the guard cannot catch', async () => {
    const { server, open } = harness();
    await open().setUp(PASSWORD);
    const before = { ...server.records[0] } as NonNullable<(typeof server.records)[0]>;
    await open().changePassword(PASSWORD, NEW_PASSWORD);
    server.records[0] = before;
    const freshBrowser = open({ keyRevs: createKeyRevStore(memoryRevStorage()) });
    await expect(freshBrowser.unlock(NEW_PASSWORD)).rejects.toBeInstanceOf(UnlockFailedError);
    await freshBrowser.unlock(PASSWORD);
    expect(freshBrowser.isUnlocked()).toBe(true);
  });
});
