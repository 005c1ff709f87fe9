import { passwordMessages, sessionStorageKeys, unlockMessages } from '@coffer/contracts';
import {
  encryptPrivateKey,
  generateFileKey,
  generateUserKeyPair,
  exportPublicKeyB64,
  parsePrivateKeyRecord,
  unwrapFileKey,
  wrapFileKey,
} from '@coffer/crypto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createSessionFlags, type SessionFlags } from '../storage/session-flags';
import { createMemoryKeyStore, UNLOCKED_KEY_IDLE_TIMEOUT_MS } from '../storage/unlocked-key-store';
import {
  createEncryptionSession,
  type EncryptionSession,
  type EncryptionSessionDeps,
} from './encryption-session';
import {
  EncryptionNotInitializedError,
  InvalidPasswordError,
  KeysAlreadyExistError,
  KeysNotFoundError,
  KeysTamperedError,
  UnlockFailedError,
  WrongOldPasswordError,
} from './encryption.errors';
import { FakeKeysServer, MemoryStorage } from './testing/fake-keys-server';

const PASSWORD = 'Correct-Horse-1';
const OTHER_PASSWORD = 'Wrong-Horse-22';
/** The fewest iterations @coffer/crypto accepts (fewer is a KDF downgrade); production uses 600000. */
const TEST_ITERATIONS = 100_000;

interface Harness {
  server: FakeKeysServer;
  storage: MemoryStorage;
  flags: SessionFlags;
  keyStore: ReturnType<typeof createMemoryKeyStore>;
  sleeps: number[];
  clock: { now: number };
  owner: { id: string | null };
  /** A session as a page load would make it: same tab storage and key store, fresh memory. */
  open(overrides?: Partial<EncryptionSessionDeps>): EncryptionSession;
}

function harness(): Harness {
  const server = new FakeKeysServer();
  const storage = new MemoryStorage();
  const flags = createSessionFlags(() => storage);
  const keyStore = createMemoryKeyStore();
  const sleeps: number[] = [];
  const clock = { now: Date.parse('2026-03-01T10:00:00Z') };
  const owner: { id: string | null } = { id: 'user-1' };
  return {
    server,
    storage,
    flags,
    keyStore,
    sleeps,
    clock,
    owner,
    open: (overrides = {}) =>
      createEncryptionSession({
        keys: server,
        keyStore,
        flags,
        owner: () => owner.id,
        pbkdf2Iterations: TEST_ITERATIONS,
        sleep: (ms) => {
          sleeps.push(ms);
          return Promise.resolve();
        },
        now: () => clock.now,
        onBackgroundError: () => undefined,
        ...overrides,
      }),
  };
}

async function roundTrip(session: EncryptionSession): Promise<void> {
  const { publicKey, privateKey } = session.requireKeys();
  const fileKey = await generateFileKey();
  const wrapped = await wrapFileKey(fileKey, publicKey);
  await expect(unwrapFileKey(wrapped, privateKey)).resolves.toBeTruthy();
}

describe('encryption session', () => {
  let h: Harness;
  beforeEach(() => {
    h = harness();
  });

  it('starts not initialised', () => {
    const session = h.open();
    expect(session.getSnapshot()).toEqual({ status: 'not-initialised' });
    expect(session.isUnlocked()).toBe(false);
    expect(session.privateKey).toBeNull();
    expect(session.keyVersion).toBeNull();
    expect(() => session.requireKeys()).toThrow(EncryptionNotInitializedError);
  });

  describe('set-up', () => {
    it('offers set-up when the user has no keys', async () => {
      await expect(h.open().getSetupStatus()).resolves.toBe('set-up');
    });

    it('creates a key pair, stores the wrapped record and unlocks', async () => {
      const session = h.open();
      const listener = vi.fn();
      session.subscribe(listener);
      await session.setUp(PASSWORD);

      expect(h.server.calls).toContain('POST /users/keys');
      const [record] = h.server.records;
      expect(record).toBeDefined();
      expect(parsePrivateKeyRecord(record?.encryptedPrivateKey ?? '').iterations).toBe(TEST_ITERATIONS);
      expect(session.isUnlocked()).toBe(true);
      expect(session.keyVersion).toBe(record?.keyId);
      expect(session.privateKey?.extractable).toBe(false);
      expect(listener).toHaveBeenCalled();
      expect(h.flags.get(sessionStorageKeys.encryptionInitialized)).toBe('true');
      await roundTrip(session);
      await expect(session.getSetupStatus()).resolves.toBe('unlock');
    });

    it('wraps new records with Argon2id (64 MiB, 3 passes), rev 1, by default (issue 29)', async () => {
      const session = h.open({ pbkdf2Iterations: undefined });
      await session.setUp(PASSWORD);
      expect(parsePrivateKeyRecord(h.server.records[0]?.encryptedPrivateKey ?? '')).toMatchObject({
        kdf: { name: 'Argon2id', memoryKiB: 65_536, passes: 3 },
        rev: 1,
      });
    }, 20_000);

    it('keeps no password and no key bytes in session storage, only a handle', async () => {
      await h.open().setUp(PASSWORD);
      const handle = h.flags.get(sessionStorageKeys.encryptionDerivedKey);
      expect(handle).toMatch(/^[0-9a-f]{32}$/);
      for (const [, value] of h.storage.entries()) expect(value).not.toContain(PASSWORD);
      const entry = await h.keyStore.get(handle ?? '');
      expect(entry?.privateKey.extractable).toBe(false);
      expect(entry?.owner).toBe('user-1');
      expect(Object.values(entry ?? {})).not.toContain(PASSWORD);
    });

    it('rejects a master key that breaks the rules, with the rule message', async () => {
      const session = h.open();
      await expect(session.setUp('short')).rejects.toThrow(
        new InvalidPasswordError(passwordMessages.tooShort),
      );
      expect(h.server.records).toHaveLength(0);
    });

    it('refuses a second key pair unless a reset asked for one', async () => {
      await h.open().setUp(PASSWORD);
      const session = h.open();
      await expect(session.setUp(OTHER_PASSWORD)).rejects.toBeInstanceOf(KeysAlreadyExistError);

      h.flags.set(sessionStorageKeys.needsNewEncryption, 'true');
      await expect(session.getSetupStatus()).resolves.toBe('set-up');
      await session.setUp(OTHER_PASSWORD);
      expect(h.server.records).toHaveLength(2);
      expect(session.keyVersion).toBe(h.server.records[1]?.keyId);
      expect(h.flags.get(sessionStorageKeys.needsNewEncryption)).toBeNull();
    });

    it('initialise creates keys when there are none, and unlocks them after', async () => {
      await expect(h.open().initialise(PASSWORD)).resolves.toBe('created');
      await expect(h.open().initialise(PASSWORD)).resolves.toBe('unlocked');
    });
  });

  describe('unlock', () => {
    beforeEach(async () => {
      await h.open().setUp(PASSWORD);
      h.sleeps.length = 0;
    });

    it('opens the newest key with the right password and waits 100 ms after', async () => {
      const session = h.open();
      await session.unlock(PASSWORD);
      expect(session.isUnlocked()).toBe(true);
      expect(session.keyVersion).toBe('key-1');
      expect(h.server.calls.at(-1)).toBe('GET /users/keys/active');
      expect(h.sleeps).toEqual([100]);
      await roundTrip(session);
    });

    it('fails with the spec message on a wrong password and stays locked', async () => {
      const session = h.open();
      const attempt = session.unlock(OTHER_PASSWORD);
      await expect(attempt).rejects.toBeInstanceOf(UnlockFailedError);
      await expect(attempt).rejects.toThrow(unlockMessages.unlockFailed);
      expect(unlockMessages.unlockFailed).toBe('Encryption Unlock failed. Please try again.');
      expect(session.isUnlocked()).toBe(false);
    });

    it('retries the key fetch up to 3 times, waiting 100 ms × attempt', async () => {
      h.server.failActive = 2;
      const session = h.open();
      await session.unlock(PASSWORD);
      expect(h.sleeps).toEqual([100, 200, 100]);
      expect(h.server.calls.filter((call) => call === 'GET /users/keys/active')).toHaveLength(3);
    });

    it('gives up after 3 failed fetches', async () => {
      h.server.failActive = 3;
      const session = h.open();
      await expect(session.unlock(PASSWORD)).rejects.toThrow(/API request failed/);
      expect(h.sleeps).toEqual([100, 200]);
      expect(session.isUnlocked()).toBe(false);
    });

    it('refuses a record whose public key the server swapped, and says why', async () => {
      const record = h.server.records[0];
      if (record === undefined) throw new Error('no record');
      record.publicKey = await exportPublicKeyB64((await generateUserKeyPair()).publicKey);
      const session = h.open();
      const attempt = session.unlock(PASSWORD);
      await expect(attempt).rejects.toBeInstanceOf(KeysTamperedError);
      await expect(attempt).rejects.toThrow(/do not belong to you/);
      expect(session.isUnlocked()).toBe(false);
    });

    it('refuses a record whose KDF the server downgraded, before deriving', async () => {
      const record = h.server.records[0];
      if (record === undefined) throw new Error('no record');
      record.encryptedPrivateKey = JSON.stringify({
        ...(JSON.parse(record.encryptedPrivateKey) as object),
        kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations: 1000 },
      });
      const attempt = h.open().unlock(PASSWORD);
      await expect(attempt).rejects.toBeInstanceOf(KeysTamperedError);
      await expect(attempt).rejects.toThrow(/weaker password protection/);
    });

    it('says so when there is no key to unlock', async () => {
      h.server.records = [];
      await expect(h.open().unlock(PASSWORD)).rejects.toBeInstanceOf(KeysNotFoundError);
    });

    it('re-wraps a record made with fewer iterations (the spec’s 100000) after opening it', async () => {
      const session = h.open({ pbkdf2Iterations: TEST_ITERATIONS * 2 });
      await session.unlock(PASSWORD);
      await vi.waitFor(() => {
        expect(parsePrivateKeyRecord(h.server.records[0]?.encryptedPrivateKey ?? '').iterations).toBe(
          TEST_ITERATIONS * 2,
        );
      });
      await expect(h.open().unlock(PASSWORD)).resolves.toBeUndefined();
    });

    it('opens a legacy record without kdf (100000 iterations)', async () => {
      const pair = await generateUserKeyPair();
      const record = JSON.parse(
        await encryptPrivateKey(pair.privateKey, PASSWORD, { iterations: 100_000 }),
      ) as Record<string, unknown>;
      delete record.kdf;
      h.server.records = [];
      await h.server.create({
        publicKey: await exportPublicKeyB64(pair.publicKey),
        encryptedPrivateKey: JSON.stringify(record),
      });
      const session = h.open({ pbkdf2Iterations: 100_000 });
      await session.unlock(PASSWORD);
      expect(session.isUnlocked()).toBe(true);
    }, 20_000);
  });

  describe('restore after a reload', () => {
    beforeEach(async () => {
      await h.open().setUp(PASSWORD);
    });

    it('restores the unlocked key from the handle in session storage', async () => {
      const reloaded = h.open();
      await expect(reloaded.restore()).resolves.toBe(true);
      expect(reloaded.keyVersion).toBe('key-1');
      expect(reloaded.privateKey?.extractable).toBe(false);
      await roundTrip(reloaded);
    });

    it('has nothing to restore without a handle', async () => {
      h.flags.remove(sessionStorageKeys.encryptionDerivedKey);
      await expect(h.open().restore()).resolves.toBe(false);
    });

    it('deletes an entry unused for more than 12 hours', async () => {
      const handle = h.flags.get(sessionStorageKeys.encryptionDerivedKey) ?? '';
      h.clock.now += UNLOCKED_KEY_IDLE_TIMEOUT_MS + 1;
      await expect(h.open().restore()).resolves.toBe(false);
      await expect(h.keyStore.get(handle)).resolves.toBeUndefined();
      expect(h.flags.get(sessionStorageKeys.encryptionDerivedKey)).toBeNull();
    });

    it('keeps an entry used within 12 hours, and restoring counts as a use', async () => {
      h.clock.now += UNLOCKED_KEY_IDLE_TIMEOUT_MS - 1000;
      await expect(h.open().restore()).resolves.toBe(true);
      h.clock.now += UNLOCKED_KEY_IDLE_TIMEOUT_MS - 1000;
      await expect(h.open().restore()).resolves.toBe(true);
    });

    it('never gives one user the key of another', async () => {
      h.owner.id = 'user-2';
      await expect(h.open().restore()).resolves.toBe(false);
      expect(h.keyStore.size).toBe(0);
    });

    it('waits for the user before restoring', async () => {
      h.owner.id = null;
      await expect(h.open().restore()).resolves.toBe(false);
      expect(h.keyStore.size).toBe(1);
    });

    it('drops a key that is no longer the newest on the server (reset in another tab)', async () => {
      h.server.records = [];
      await expect(h.open().restore()).resolves.toBe(false);
      expect(h.keyStore.size).toBe(0);
    });

    it('shares one restore between concurrent callers', async () => {
      const reloaded = h.open();
      const results = await Promise.all([reloaded.restore(), reloaded.restore()]);
      expect(results).toEqual([true, true]);
      expect(h.server.calls.filter((call) => call === 'GET /users/keys/active')).toHaveLength(1);
    });
  });

  describe('clear', () => {
    it('returns to not initialised and forgets the stored key', async () => {
      const session = h.open();
      await session.setUp(PASSWORD);
      const listener = vi.fn();
      session.subscribe(listener);
      await session.clear();
      expect(session.getSnapshot().status).toBe('not-initialised');
      expect(listener).toHaveBeenCalledTimes(1);
      expect(h.flags.get(sessionStorageKeys.encryptionDerivedKey)).toBeNull();
      expect(h.flags.get(sessionStorageKeys.encryptionInitialized)).toBeNull();
      expect(h.keyStore.size).toBe(0);
      await expect(h.open().restore()).resolves.toBe(false);
    });

    it('everywhere: deletes the stored keys of every tab (logout)', async () => {
      const session = h.open();
      await session.setUp(PASSWORD);
      const keys = session.requireKeys();
      await h.keyStore.put({ handle: 'other-tab', ...keys, owner: 'user-1', lastUsedAt: h.clock.now });
      expect(h.keyStore.size).toBe(2);
      await h.open().clear({ everywhere: true });
      expect(h.keyStore.size).toBe(0);
    });
  });

  describe('reset (forgotten key)', () => {
    it('deletes every key, clears and asks for a new set-up', async () => {
      const session = h.open();
      await session.setUp(PASSWORD);
      h.flags.set(sessionStorageKeys.needsNewEncryption, 'true');
      await session.setUp(OTHER_PASSWORD);
      expect(h.server.records).toHaveLength(2);

      await session.reset();
      expect(h.server.calls.filter((call) => call.startsWith('DELETE'))).toEqual([
        'DELETE /users/keys/key-2',
        'DELETE /users/keys/key-1',
      ]);
      expect(h.server.records).toHaveLength(0);
      expect(session.isUnlocked()).toBe(false);
      expect(h.flags.get(sessionStorageKeys.needsNewEncryption)).toBe('true');
      expect(h.keyStore.size).toBe(0);
      await expect(session.getSetupStatus()).resolves.toBe('set-up');
    });
  });

  describe('change password', () => {
    beforeEach(async () => {
      await h.open().setUp(PASSWORD);
      // Only the change's own calls count (set-up also stores the drive key).
      h.server.calls.length = 0;
    });

    it('re-wraps the key under the new password', async () => {
      await h.open().changePassword(PASSWORD, OTHER_PASSWORD);
      // One call for every record: an interrupted change leaves all old or all new.
      // (Other PUTs, such as a drive key added at unlock, are not the change's.)
      expect(h.server.calls.filter((call) => /^PUT \/users\/keys(\/[^/]+)?$/.test(call))).toEqual([
        'PUT /users/keys',
      ]);
      await expect(h.open().unlock(PASSWORD)).rejects.toBeInstanceOf(UnlockFailedError);
      const session = h.open();
      await session.unlock(OTHER_PASSWORD);
      expect(session.keyVersion).toBe('key-1');
    });

    it('needs the correct old password', async () => {
      await expect(h.open().changePassword('Not-The-Key-9', OTHER_PASSWORD)).rejects.toBeInstanceOf(
        WrongOldPasswordError,
      );
      expect(h.server.calls.filter((call) => /^PUT \/users\/keys(\/[^/]+)?$/.test(call))).toEqual([]);
    });

    it('applies the rules to the new password', async () => {
      await expect(h.open().changePassword(PASSWORD, 'alllowercase1!')).rejects.toThrow(
        passwordMessages.uppercase,
      );
    });

    it('needs existing keys', async () => {
      h.server.records = [];
      await expect(h.open().changePassword(PASSWORD, OTHER_PASSWORD)).rejects.toBeInstanceOf(
        KeysNotFoundError,
      );
    });
  });
});
