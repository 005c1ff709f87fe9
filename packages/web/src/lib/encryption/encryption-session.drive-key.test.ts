import {
  createDriveKey,
  encryptPrivateKey,
  exportPublicKeyB64,
  generateUserKeyPair,
  sealMetadata,
  openMetadata,
} from '@coffer/crypto';
import { describe, expect, it } from 'vitest';
import { createSessionFlags } from '../storage/session-flags';
import { createMemoryKeyStore } from '../storage/unlocked-key-store';
import { createEncryptionSession, type EncryptionSessionDeps } from './encryption-session';
import { KeysTamperedError } from './encryption.errors';
import { FakeKeysServer, MemoryStorage } from './testing/fake-keys-server';

const PASSWORD = 'Correct-Horse-1';
const EMAIL = 'alice@example.com';
const NODE = '0b7c6f3e-8d1a-4c2b-9e5f-1a2b3c4d5e6f';

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
  return { server, open, keyStore };
}

/** Seals with one session's drive key and opens with another's: the same key. */
async function sameKey(a: CryptoKey | undefined, b: CryptoKey | undefined): Promise<boolean> {
  if (a === undefined || b === undefined) return false;
  const sealed = await sealMetadata(a, NODE, { name: 'x.txt' });
  return (await openMetadata(b, NODE, sealed)).name === 'x.txt';
}

async function legacyRecord(server: FakeKeysServer, keyId: string): Promise<void> {
  const pair = await generateUserKeyPair();
  server.records.push({
    keyId,
    publicKey: await exportPublicKeyB64(pair.publicKey),
    encryptedPrivateKey: await encryptPrivateKey(pair.privateKey, PASSWORD, { iterations: 100_000 }),
    createdAt: '2025-01-01T00:00:00.000Z',
  });
}

describe('encryption session: drive key (issue 31)', () => {
  it('set-up makes a drive key, stores its wrap once, and the next unlock opens the same key', async () => {
    const { server, open } = harness();
    const first = open();
    await first.setUp(PASSWORD);
    const keyId = server.records[0]?.keyId ?? '';
    expect(server.calls).toContain(`PUT /users/keys/${keyId}/drive-key`);
    const driveKey = first.requireKeys().driveKey;
    expect(driveKey?.extractable).toBe(false);

    server.calls.length = 0;
    const second = open();
    await second.unlock(PASSWORD);
    expect(server.calls).not.toContain(`PUT /users/keys/${keyId}/drive-key`);
    expect(await sameKey(driveKey, second.requireKeys().driveKey)).toBe(true);
  });

  it('a record from before the drive key gets one at unlock', async () => {
    const { server, open } = harness();
    await legacyRecord(server, 'legacy-1');
    const session = open();
    await session.unlock(PASSWORD);
    expect(server.calls).toContain('PUT /users/keys/legacy-1/drive-key');
    expect(server.records[0]?.wrappedDriveKey).toBeDefined();
    expect(session.requireKeys().driveKey).toBeDefined();
  });

  it('keeps the drive key across a reload (restore)', async () => {
    const { open } = harness();
    const first = open();
    await first.setUp(PASSWORD);
    const reloaded = open();
    expect(await reloaded.restore()).toBe(true);
    expect(await sameKey(first.requireKeys().driveKey, reloaded.requireKeys().driveKey)).toBe(true);
  });

  it('refuses a drive key wrapped to another key pair as tampered keys', async () => {
    const { server, open } = harness();
    await legacyRecord(server, 'legacy-2');
    const stranger = await generateUserKeyPair();
    const foreign = await createDriveKey([stranger.publicKey]);
    const record = server.records[0];
    if (record === undefined) throw new Error('no record');
    record.wrappedDriveKey = foreign.wrappedDriveKeysB64[0];
    await expect(open().unlock(PASSWORD)).rejects.toBeInstanceOf(KeysTamperedError);
  });

  it('unlocks without a drive key when storing it fails, and tries again next unlock', async () => {
    const { server, open } = harness();
    await legacyRecord(server, 'legacy-3');
    const put = server.putDriveKey.bind(server);
    server.putDriveKey = () => Promise.reject(Object.assign(new Error('offline'), { status: 503 }));
    const session = open();
    await session.unlock(PASSWORD);
    expect(session.requireKeys().driveKey).toBeUndefined();
    server.putDriveKey = put;
    const again = open();
    await again.unlock(PASSWORD);
    expect(again.requireKeys().driveKey).toBeDefined();
  });
});
