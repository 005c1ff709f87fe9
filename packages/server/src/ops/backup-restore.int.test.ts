import { createHash, randomBytes } from 'node:crypto';
import {
  appendFileSync,
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileListResponse } from '@coffer/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobNotFoundError } from '../infra/storage/blob-store.js';
import type { BlobStore } from '../infra/storage/blob-store.js';
import { createFsBlobStore } from '../infra/storage/blob-store.fs.js';
import { sql } from 'kysely';
import { createKey, putPart, startMultipart, uploadDirect } from '../modules/files/files.test-helpers.js';
import { startTestApp } from '../test/app-harness.js';
import type { TestApp } from '../test/app-harness.js';
import { dialectsUnderTest } from '../test/db.js';
import type { TestDatabase } from '../test/db.js';
import { backup } from './backup.js';
import type { BackupManifest } from './backup-format.js';
import { TABLE_ORDER, currentSchemaTables } from '../infra/db/coffer-tables.js';
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

  /** A copy of the backup in `dir` whose manifest `edit` changed. */
  const tampered = (dir: string, edit: (manifest: BackupManifest) => void) => {
    const copy = folder('tampered');
    cpSync(dir, copy, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(copy, 'manifest.json'), 'utf8')) as BackupManifest;
    edit(manifest);
    writeFileSync(join(copy, 'manifest.json'), JSON.stringify(manifest));
    return copy;
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
    // An upload in progress: its storage upload will not exist in the restored store.
    const pending = await startMultipart(t, 'rae', { keyId, size: 1024 });
    expect((await putPart(t, 'rae', pending, 1, randomBytes(1052))).statusCode).toBe(200);
    // Tables that are not Coffer's, next to its own and (PostgreSQL) in another schema, stay out.
    await sql`create table not_coffers (id integer)`.execute(source.db);
    const otherSchema = `coffer_test_other_${randomBytes(6).toString('hex')}`;
    if (name === 'postgres') {
      await sql.raw(`create schema ${otherSchema}`).execute(source.db);
      await sql.raw(`create table ${otherSchema}.users (id integer)`).execute(source.db);
    }

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
    expect(manifest.tables.map((table) => table.name)).toEqual(TABLE_ORDER);
    if (name === 'postgres') await sql.raw(`drop schema ${otherSchema} cascade`).execute(source.db);
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
    const [blob] = manifest.blobs;
    if (blob === undefined) throw new Error('no blob in the backup');
    const into = (from: string) =>
      restore({ db: target?.db ?? source.db, blobStore: targetStore, dir: from });
    await expect(into(tampered(dir, (m) => (m.blobs[0] = { ...blob, file: '../../x' })))).rejects.toThrow(
      /file name for object .* is not the SHA-256 of its key/,
    );
    await expect(into(tampered(dir, (m) => m.tables.push({ name: 'not_coffers', rows: 0 })))).rejects.toThrow(
      /a table that is not Coffer's: "not_coffers"/,
    );
    const lacking = tampered(dir, () => undefined);
    rmSync(join(lacking, 'blobs', blob.file));
    await expect(into(lacking)).rejects.toThrow(
      `the backup's copy of ${blob.key} (blobs/${blob.file}) is missing`,
    );
    const damaged = tampered(dir, () => undefined);
    appendFileSync(join(damaged, 'blobs', blob.file), 'x');
    await expect(into(damaged)).rejects.toThrow(/is damaged/);
    // Checked before storing: nothing of the damaged copy reached the store.
    await expect(targetStore.get(blob.key)).rejects.toBeInstanceOf(BlobNotFoundError);

    // An instance started once wrote its own secrets; the backup's replace them.
    await target.db
      .insertInto('server_secrets')
      .values({
        name: 'billing-demo',
        value: 'generated-by-the-new-instance',
        created_at: new Date().toISOString(),
      })
      .execute();
    await into(dir);
    const secrets = (db: TestDatabase) =>
      db.db.selectFrom('server_secrets').selectAll().orderBy('name').execute();
    expect(await secrets(target)).toEqual(await secrets(source));
    const restoredUpload = await target.db
      .selectFrom('uploads')
      .select('status')
      .where('id', '=', pending.uploadId)
      .executeTakeFirstOrThrow();
    expect(restoredUpload.status).toBe('aborted');
    const parts = await target.db.selectFrom('upload_parts').selectAll().execute();
    expect(parts).toEqual([]);
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

  it('knows every table the migrations create, so a backup leaves none out', async () => {
    const created = (await currentSchemaTables(source.db)).filter((table) => !table.startsWith('kysely_'));
    expect(created.filter((table) => table !== 'not_coffers').sort()).toEqual([...TABLE_ORDER].sort());
  });

  it('refuses a target with rows in any table, or with migrations the backup lacks', async () => {
    const dir = folder('backup-small');
    const manifest = await backup({ db: source.db, dialect: name, blobStore: t.blobStore, dir });
    const used = await open();
    try {
      await used.db
        .insertInto('rate_limits')
        .values({ key: 'rule:x', count: 1, window_ends_at: new Date().toISOString(), blocked_until: null })
        .execute();
      const blobStore = createFsBlobStore({ root: folder('unused-blobs') });
      await expect(restore({ db: used.db, blobStore, dir })).rejects.toThrow(
        'the target database is not empty (table rate_limits has rows): restore into a new one',
      );
      const older = tampered(dir, (m) => (m.migrations = manifest.migrations.slice(0, -1)));
      await expect(restore({ db: used.db, blobStore, dir: older })).rejects.toThrow(
        `the target database has migrations the backup lacks (${manifest.migrations.at(-1)})`,
      );
    } finally {
      await used.destroy();
    }
  });
});
