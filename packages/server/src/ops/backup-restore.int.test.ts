import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileListResponse } from '@coffer/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobNotFoundError } from '../infra/storage/blob-store.js';
import type { BlobStore } from '../infra/storage/blob-store.js';
import { createFsBlobStore } from '../infra/storage/blob-store.fs.js';
import { createKey, uploadDirect } from '../modules/files/files.test-helpers.js';
import { startTestApp } from '../test/app-harness.js';
import type { TestApp } from '../test/app-harness.js';
import { dialectsUnderTest } from '../test/db.js';
import type { TestDatabase } from '../test/db.js';
import { backup } from './backup.js';
import { restore } from './restore.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe.each(dialectsUnderTest)('backup and restore ($name, $backend)', ({ name, open }) => {
  let source: TestDatabase;
  let target: TestDatabase | undefined;
  let t: TestApp;
  let restored: TestApp | undefined;
  const folders: string[] = [];
  const folder = (label: string) => {
    const dir = mkdtempSync(join(tmpdir(), `coffer-${label}-`));
    folders.push(dir);
    return dir;
  };

  beforeAll(async () => {
    source = await open();
    t = await startTestApp({ database: source });
  });
  afterAll(async () => {
    await restored?.close();
    await target?.destroy();
    await t.close();
    await source.destroy();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  it('restores into an empty instance, which serves the same bytes to the same user', async () => {
    const keyId = await createKey(t, 'rae');
    const { file, ciphertext } = await uploadDirect(t, 'rae', { keyId, size: 300_000, name: 'plan.pdf' });
    const gone = await uploadDirect(t, 'rae', { keyId, size: 1000, name: 'deleted-meanwhile.pdf' });
    const contact = await t.as('rae', {
      method: 'POST',
      url: '/api/users/contacts',
      payload: { email: 'sam@example.test', name: 'Sam' },
    });
    expect(contact.statusCode).toBe(201);

    const keyOf = async (fileId: string) =>
      (
        await source.db
          .selectFrom('files')
          .select('object_key')
          .where('id', '=', fileId)
          .executeTakeFirstOrThrow()
      ).object_key;
    const goneKey = await keyOf(gone.file.fileId);

    // The app keeps running; one file is deleted between the snapshot and the copy of its object.
    const deletingStore: BlobStore = {
      ...t.blobStore,
      get: (key, range) =>
        key === goneKey ? Promise.reject(new BlobNotFoundError(key)) : t.blobStore.get(key, range),
    };
    const dir = join(folder('backup'), 'nightly');
    const manifest = await backup({ db: source.db, dialect: name, blobStore: deletingStore, dir });
    expect(manifest.blobs.map((b) => b.key)).toEqual([await keyOf(file.fileId)]);
    expect(manifest.missingFiles).toEqual([gone.file.fileId]);
    // Only its owner may read a backup: it holds keys, password hashes and the server's secrets.
    const written = [
      dir,
      ...readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((p) => join(dir, p)),
    ];
    expect(written.length).toBeGreaterThan(5);
    for (const path of written) {
      expect({ path, mode: statSync(path).mode & 0o777 }).toEqual({
        path,
        mode: statSync(path).isDirectory() ? 0o700 : 0o600,
      });
    }

    target = await open({ migrate: false });
    const targetStore = createFsBlobStore({ root: folder('restored-blobs') });
    await restore({ db: target.db, blobStore: targetStore, dir });
    await expect(restore({ db: target.db, blobStore: targetStore, dir })).rejects.toThrow(/not empty/);

    // A new instance on the restored database and store; the same identity provider signs the user in.
    restored = await startTestApp({
      database: target,
      env: { OIDC_ISSUER: t.issuer.issuer, OIDC_AUDIENCE: t.issuer.audience },
      overrides: { blobStore: targetStore },
    });
    const as = async (url: string) =>
      restored?.app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${await t.tokenFor('rae')}` },
      });
    const list = await as('/api/users/files');
    expect(list?.json<FileListResponse>().files.map((f) => f.name)).toEqual(['plan.pdf']);
    const download = await as(`/api/users/files/${file.fileId}/download`);
    expect(download?.statusCode).toBe(200);
    expect(sha256(download?.rawPayload ?? new Uint8Array())).toBe(sha256(ciphertext));
    const contacts = await as('/api/users/contacts');
    expect(contacts?.body).toContain('sam@example.test');
  });
});
