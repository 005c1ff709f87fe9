import type { KeyRecord } from '@coffer/contracts';
import {
  createDriveKey,
  encryptPrivateKey,
  exportPublicKeyB64,
  generateSigningKeyPair,
  generateUserKeyPair,
  importPublicKeyB64,
  sealMetadata,
  openMetadata,
  signDriveKeyRecord,
  verifyDriveKeyRecord,
} from '@coffer/crypto';
import { describe, expect, it } from 'vitest';
import { createSessionFlags } from '../storage/session-flags';
import { createMemoryKeyStore } from '../storage/unlocked-key-store';
import { createEncryptionSession, type EncryptionSessionDeps } from './encryption-session';
import { DRIVE_KEY_NOT_SIGNED } from './drive-key';
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

/** The record as the fake server holds it (the session reads the same object). */
function onlyRecord(server: FakeKeysServer): KeyRecord {
  const record = server.records[0];
  if (record === undefined) throw new Error('no record');
  return record;
}

/** Is the stored drive key record valid for the stored wrap, against the record's own signing key? */
async function signedByOwner(record: KeyRecord): Promise<boolean> {
  const check = await verifyDriveKeyRecord(
    record.driveKeyRecord,
    { ownerEmail: EMAIL, keyId: record.keyId, wrappedDriveKeyB64: record.wrappedDriveKey ?? '' },
    record.signingPublicKey ?? '',
  );
  return check.status === 'valid';
}

/** A drive key someone else made: wrapped to the user's own PUBLIC key, so it opens with her private key. */
async function plantedWrap(record: KeyRecord): Promise<string> {
  const { wrappedDriveKeysB64 } = await createDriveKey([await importPublicKeyB64(record.publicKey)]);
  return wrappedDriveKeysB64[0] ?? '';
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
    expect(await signedByOwner(onlyRecord(server))).toBe(true);

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
    // Signed with the signing key the same unlock gave the record.
    expect(await signedByOwner(onlyRecord(server))).toBe(true);
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

  describe('a planted drive key (wrapped to my public key by someone else) is refused as tampered keys', () => {
    /** Set up, then let the server swap in its own drive key and `driveKeyRecord`. */
    async function unlockWithPlanted(
      record: (planted: string, mine: KeyRecord) => Promise<string | undefined>,
    ) {
      const { server, open } = harness();
      await open().setUp(PASSWORD);
      const mine = onlyRecord(server);
      const planted = await plantedWrap(mine);
      const plantedRecord = await record(planted, { ...mine });
      mine.wrappedDriveKey = planted;
      if (plantedRecord === undefined) delete mine.driveKeyRecord;
      else mine.driveKeyRecord = plantedRecord;
      const session = open();
      const refused = await session.unlock(PASSWORD).then(
        () => null,
        (error: unknown) => error,
      );
      return { refused, session };
    }

    function expectRefused(outcome: Awaited<ReturnType<typeof unlockWithPlanted>>): void {
      expect(outcome.refused).toBeInstanceOf(KeysTamperedError);
      expect((outcome.refused as Error).message).toBe(DRIVE_KEY_NOT_SIGNED);
      expect(outcome.session.isUnlocked()).toBe(false);
    }

    it('without a record', async () => {
      expectRefused(await unlockWithPlanted(() => Promise.resolve(undefined)));
    });

    it('with a record signed by another key', async () => {
      const mallory = await generateSigningKeyPair();
      expectRefused(
        await unlockWithPlanted((planted, mine) =>
          signDriveKeyRecord(
            { ownerEmail: EMAIL, keyId: mine.keyId, wrappedDriveKeyB64: planted },
            mallory.privateKey,
          ),
        ),
      );
    });

    it('with my genuine record of my own wrap (replayed beside the planted one)', async () => {
      expectRefused(await unlockWithPlanted((_planted, mine) => Promise.resolve(mine.driveKeyRecord)));
    });

    it('when another device "stored one first" (409) and the server answers with a planted one', async () => {
      const { server, open } = harness();
      await legacyRecord(server, 'legacy-409');
      const record = onlyRecord(server);
      server.putDriveKey = async (keyId) => {
        server.calls.push(`PUT /users/keys/${keyId}/drive-key`);
        record.wrappedDriveKey = await plantedWrap(record);
        throw Object.assign(new Error('conflict'), { status: 409 });
      };
      await expect(open().unlock(PASSWORD)).rejects.toThrow(DRIVE_KEY_NOT_SIGNED);
    });
  });

  it('a reload that would add a planted drive key to the stored keys forgets them instead', async () => {
    const { server, open } = harness();
    const put = server.putDriveKey.bind(server);
    server.putDriveKey = () => Promise.reject(Object.assign(new Error('offline'), { status: 503 }));
    const first = open();
    await first.setUp(PASSWORD);
    expect(first.requireKeys().driveKey).toBeUndefined();
    server.putDriveKey = put;
    const record = onlyRecord(server);
    record.wrappedDriveKey = await plantedWrap(record);
    const reloaded = open();
    expect(await reloaded.restore()).toBe(false);
    expect(reloaded.isUnlocked()).toBe(false);
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
