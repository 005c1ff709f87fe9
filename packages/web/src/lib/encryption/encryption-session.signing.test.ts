import { encryptPrivateKey, exportPublicKeyB64, generateUserKeyPair, parseKeyBinding } from '@coffer/crypto';
import { describe, expect, it } from 'vitest';
import { createSessionFlags } from '../storage/session-flags';
import { createMemoryKeyStore } from '../storage/unlocked-key-store';
import { createEncryptionSession, type EncryptionSessionDeps } from './encryption-session';
import { KeysTamperedError } from './encryption.errors';
import { FakeKeysServer, MemoryStorage } from './testing/fake-keys-server';

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
  return { server, open };
}

describe('encryption session: signing keys (issue 13)', () => {
  it('set-up uploads a signing key bound to the email and a client-chosen key id', async () => {
    const { server, open } = harness();
    const session = open();
    await session.setUp(PASSWORD);
    const [record] = server.records;
    expect(record?.keyId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(record?.signingPublicKey).toBeDefined();
    expect(record?.encryptedSigningKey).toBeDefined();
    const binding = parseKeyBinding(record?.keyBinding ?? '');
    expect(binding?.email).toBe(EMAIL);
    expect(binding?.keyId).toBe(record?.keyId);
    const keys = session.requireKeys();
    expect(keys.signingPrivateKey?.extractable).toBe(false);
    expect(keys.signingPublicKeyB64).toBe(record?.signingPublicKey);
  });

  it('gives a record made before signing keys one at the next unlock, once', async () => {
    const { server, open } = harness();
    const pair = await generateUserKeyPair();
    server.records.push({
      keyId: 'legacy-1',
      publicKey: await exportPublicKeyB64(pair.publicKey),
      encryptedPrivateKey: await encryptPrivateKey(pair.privateKey, PASSWORD, { iterations: 100_000 }),
      createdAt: '2025-01-01T00:00:00.000Z',
    });
    const session = open();
    await session.unlock(PASSWORD);
    expect(server.calls).toContain('PUT /users/keys/legacy-1/signing');
    expect(session.requireKeys().signingPrivateKey).toBeDefined();
    expect(parseKeyBinding(server.records[0]?.keyBinding ?? '')?.keyId).toBe('legacy-1');

    server.calls.length = 0;
    await open().unlock(PASSWORD);
    expect(server.calls).not.toContain('PUT /users/keys/legacy-1/signing');
  });

  it('when adding the signing key fails: unlocks without one (never as if signed), retries next unlock', async () => {
    const { server, open } = harness();
    const pair = await generateUserKeyPair();
    server.records.push({
      keyId: 'legacy-2',
      publicKey: await exportPublicKeyB64(pair.publicKey),
      encryptedPrivateKey: await encryptPrivateKey(pair.privateKey, PASSWORD, { iterations: 100_000 }),
      createdAt: '2025-01-01T00:00:00.000Z',
    });
    server.failAddSigningKey = 1;
    const errors: unknown[] = [];
    const failed = open({ onBackgroundError: (error) => errors.push(error) });
    await failed.unlock(PASSWORD);
    // Files still open; nothing can be signed, and nothing claims to be.
    const keys = failed.requireKeys();
    expect(keys.privateKey).toBeDefined();
    expect(keys.signingPrivateKey).toBeUndefined();
    expect(keys.signingPublicKeyB64).toBeUndefined();
    expect(server.records[0]?.signingPublicKey).toBeUndefined();
    expect(errors).toHaveLength(1);
    // A reload restores the same state: still without a signing key (no password to make one).
    const reloaded = open();
    expect(await reloaded.restore()).toBe(true);
    expect(reloaded.requireKeys().signingPrivateKey).toBeUndefined();

    server.calls.length = 0;
    const retried = open();
    await retried.unlock(PASSWORD);
    expect(server.calls).toContain('PUT /users/keys/legacy-2/signing');
    expect(retried.requireKeys().signingPrivateKey).toBeDefined();
    expect(retried.requireKeys().signingPublicKeyB64).toBe(server.records[0]?.signingPublicKey);
  });

  it('refuses a record whose signing key was swapped, saying why', async () => {
    const { server, open } = harness();
    await open().setUp(PASSWORD);
    const other = harness();
    await other.open().setUp(PASSWORD);
    const record = server.records[0];
    const forged = other.server.records[0];
    if (record === undefined || forged === undefined) throw new Error('no records');
    Object.assign(record, {
      signingPublicKey: forged.signingPublicKey,
      encryptedSigningKey: forged.encryptedSigningKey,
      keyBinding: forged.keyBinding,
    });
    await expect(open().unlock(PASSWORD)).rejects.toBeInstanceOf(KeysTamperedError);
  });

  it('a password change re-wraps both keys', async () => {
    const { server, open } = harness();
    await open().setUp(PASSWORD);
    const before = server.records[0]?.encryptedSigningKey;
    await open().changePassword(PASSWORD, NEW_PASSWORD);
    expect(server.records[0]?.encryptedSigningKey).not.toBe(before);
    const session = open();
    await session.unlock(NEW_PASSWORD);
    expect(session.requireKeys().signingPrivateKey).toBeDefined();
  });

  it('a reload restores the signing key with the private key', async () => {
    const { open } = harness();
    await open().setUp(PASSWORD);
    const reloaded = open();
    expect(await reloaded.restore()).toBe(true);
    expect(reloaded.requireKeys().signingPrivateKey).toBeDefined();
  });
});
