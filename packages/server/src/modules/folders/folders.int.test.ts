import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import type { FileListItem, FileMetadata, Folder, SharedFolderNodesResponse } from '@coffer/contracts';
import { FOLDER_DEPTH_MAX, NODE_BATCH_MAX_FILES } from '@coffer/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/app-harness.js';
import type { TestApp } from '../../test/app-harness.js';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { wrappedKeyB64 } from '../../test/factories.js';
import { completeMultipart, createKey, putPart, statsOf, uploadDirect } from '../files/files.test-helpers.js';
import { createFolder, nodeAt, placeAt } from './folders.test-helpers.js';

describe.each(dialectsUnderTest)('folders ($name)', ({ name: dialect, open }) => {
  let database: TestDatabase;
  let t: TestApp;

  beforeAll(async () => {
    database = await open();
    t = await startTestApp({ database });
  });
  afterAll(async () => {
    await t.close();
    await database.destroy();
  });

  const get = (user: string, url: string) => t.as(user, { method: 'GET', url });
  const folderList = async (user: string) =>
    (await get(user, '/api/users/folders')).json<{ folders: Folder[] }>().folders;
  const patch = (user: string, nodeId: string, payload: object) =>
    t.as(user, { method: 'PATCH', url: `/api/users/folders/${nodeId}`, payload });
  /** A direct upload placed in `parentNodeId` with the `node` form field. */
  const uploadInto = async (user: string, keyId: string, parentNodeId: string | null, name = 'x.bin') =>
    uploadDirect(t, user, { keyId, size: 50, name, fields: { node: JSON.stringify(nodeAt(parentNodeId)) } });

  it('creates, lists, renames, moves and deletes folders with everything below them', async () => {
    const keyId = await createKey(t, 'fa');
    const top = await createFolder(t, 'fa', null);
    const child = await createFolder(t, 'fa', top.nodeId);
    const grandchild = await createFolder(t, 'fa', child.nodeId);
    const other = await createFolder(t, 'fa', null);
    expect((await folderList('fa')).map((f) => f.nodeId).sort()).toEqual(
      [top.nodeId, child.nodeId, grandchild.nodeId, other.nodeId].sort(),
    );

    const renamed = placeAt(child.parentNodeId);
    const rename = await patch('fa', child.nodeId, renamed);
    expect(rename.statusCode, rename.body).toBe(200);
    expect(rename.json<Folder>()).toMatchObject({ nodeId: child.nodeId, ...renamed });

    const move = await patch('fa', child.nodeId, placeAt(other.nodeId));
    expect(move.statusCode, move.body).toBe(200);
    expect(move.json<Folder>().parentNodeId).toBe(other.nodeId);

    // Files at each level; one at the top stays.
    const inChild = await uploadInto('fa', keyId, child.nodeId);
    const inGrandchild = await uploadInto('fa', keyId, grandchild.nodeId);
    const atTop = await uploadInto('fa', keyId, null);
    const objectKeys = [inChild, inGrandchild].map(() => '');
    const files = await database.db.selectFrom('files').select(['id', 'object_key']).execute();
    for (const [i, upload] of [inChild, inGrandchild].entries()) {
      objectKeys[i] = files.find((f) => f.id === upload.file.fileId)?.object_key ?? '';
      expect(await t.blobStore.stat(objectKeys[i] ?? '')).not.toBeNull();
    }
    const usedBefore = (await statsOf(t, 'fa')).storage.used;

    const deleted = await t.as('fa', { method: 'DELETE', url: `/api/users/folders/${other.nodeId}` });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await folderList('fa')).map((f) => f.nodeId)).toEqual([top.nodeId]);
    const left = (await get('fa', '/api/users/files')).json<{ files: FileListItem[] }>().files;
    expect(left.map((f) => f.fileId)).toEqual([atTop.file.fileId]);
    for (const objectKey of objectKeys) expect(await t.blobStore.stat(objectKey)).toBeNull();
    expect((await statsOf(t, 'fa')).storage.used).toBe(usedBefore - 2 * (50 + 28));
    const again = await t.as('fa', { method: 'DELETE', url: `/api/users/folders/${other.nodeId}` });
    expect(again.statusCode).toBe(404);
  });

  it('refuses a move under its own subtree (409), to a missing parent (404) and beyond the depth limit', async () => {
    const a = await createFolder(t, 'fb', null);
    const b = await createFolder(t, 'fb', a.nodeId);
    const c = await createFolder(t, 'fb', b.nodeId);
    for (const target of [a.nodeId, b.nodeId, c.nodeId]) {
      const res = await patch('fb', a.nodeId, placeAt(target));
      expect(res.statusCode, target).toBe(target === a.nodeId ? 400 : 409);
    }
    const missing = await patch('fb', b.nodeId, placeAt(randomUUID()));
    expect(missing.statusCode).toBe(404);
    const orphan = await t.as('fb', {
      method: 'POST',
      url: '/api/users/folders',
      payload: nodeAt(randomUUID()),
    });
    expect(orphan.statusCode).toBe(404);
    expect((await folderList('fb')).find((f) => f.nodeId === a.nodeId)?.parentNodeId).toBeNull();

    // A chain FOLDER_DEPTH_MAX deep: one more level is refused, and so is moving a 3-deep tree under it.
    let parent: string | null = null;
    for (let depth = 1; depth <= FOLDER_DEPTH_MAX; depth += 1)
      parent = (await createFolder(t, 'fb', parent)).nodeId;
    const deeper = await t.as('fb', { method: 'POST', url: '/api/users/folders', payload: nodeAt(parent) });
    expect(deeper.statusCode).toBe(400);
    expect(deeper.json<{ message: string }>().message).toMatch(/at most 64 deep/);
    expect((await patch('fb', a.nodeId, placeAt(parent))).statusCode).toBe(400);
  });

  it("answers another user's folder exactly like a missing one", async () => {
    await createKey(t, 'fc-owner');
    const folder = await createFolder(t, 'fc-owner', null);
    const missingId = randomUUID();
    const calls = (nodeId: string) =>
      [
        ['PATCH', `/api/users/folders/${nodeId}`, placeAt(null)],
        ['DELETE', `/api/users/folders/${nodeId}`, undefined],
        ['GET', `/api/users/folders/${nodeId}/shares`, undefined],
        ['DELETE', `/api/users/folders/${nodeId}/shares/x%40example.test`, undefined],
        ['GET', `/api/users/folders/shared/${nodeId}/nodes`, undefined],
      ] as const;
    for (const [i, [method, url, payload]] of calls(folder.nodeId).entries()) {
      const [, missingUrl] = calls(missingId)[i] ?? [];
      const foreign = await t.as('fc-mal', { method, url, ...(payload === undefined ? {} : { payload }) });
      const missing = await t.as('fc-mal', {
        method,
        url: missingUrl ?? '',
        ...(payload === undefined ? {} : { payload }),
      });
      expect(foreign.statusCode, `${method} ${url}`).toBe(404);
      expect(foreign.json()).toEqual(missing.json());
    }
    expect(await folderList('fc-mal')).toEqual([]);
    expect((await folderList('fc-owner')).map((f) => f.nodeId)).toEqual([folder.nodeId]);
    // Another user may choose the same node id for a folder of theirs: ids are scoped to their owner.
    const same = await t.as('fc-mal', {
      method: 'POST',
      url: '/api/users/folders',
      payload: nodeAt(null, folder.nodeId),
    });
    expect(same.statusCode).toBe(201);
  });

  it('refuses bad bodies with 400', async () => {
    const folder = await createFolder(t, 'fd', null);
    const good = nodeAt(null);
    const bad: [string, object][] = [
      ['upper-case node id', { ...good, nodeId: good.nodeId.toUpperCase() }],
      ['drive as parent', { ...good, parentNodeId: 'drive' }],
      ['own parent', { ...good, parentNodeId: good.nodeId }],
      ['metadata over 4 KiB', { ...good, encryptedMetadata: 'A'.repeat(4100) }],
      ['wrap over 1 KiB', { ...good, wrappedKey: 'A'.repeat(1028) }],
      ['record over 4 KiB', { ...good, nodeRecord: `{"a":"${'x'.repeat(4100)}"}` }],
      ['record not an object', { ...good, nodeRecord: 'not json' }],
      ['metadata not base64', { ...good, encryptedMetadata: 'not base64!' }],
      ['unknown member', { ...good, name: 'clear.txt' }],
    ];
    for (const [what, payload] of bad) {
      const res = await t.as('fd', { method: 'POST', url: '/api/users/folders', payload });
      expect(res.statusCode, what).toBe(400);
    }
    const keyId = await createKey(t, 'fd');
    const { file } = await uploadDirect(t, 'fd', { keyId, size: 5 });
    const tooMany = Array.from({ length: NODE_BATCH_MAX_FILES + 1 }, () => ({
      fileId: file.fileId,
      ...nodeAt(null),
    }));
    const batch = await t.as('fd', {
      method: 'POST',
      url: '/api/users/files/nodes',
      payload: { files: tooMany },
    });
    expect(batch.statusCode).toBe(400);
    const twice = await t.as('fd', {
      method: 'POST',
      url: '/api/users/files/nodes',
      payload: {
        files: [
          { fileId: file.fileId, ...nodeAt(null) },
          { fileId: file.fileId, ...nodeAt(null) },
        ],
      },
    });
    expect(twice.statusCode).toBe(400);
    const share = await t.as('fd', {
      method: 'POST',
      url: `/api/users/folders/${folder.nodeId}/shares`,
      payload: { email: 'someone@example.test', encryptedFolderKey: wrappedKeyB64(), keyVersion: 'k' },
    });
    expect(share.statusCode).toBe(400);
    const form = await t.as('fd', {
      method: 'PUT',
      url: `/api/users/files/${file.fileId}/node`,
      payload: { ...nodeAt(null), parentNodeId: undefined },
    });
    expect(form.statusCode).toBe(400);
  });

  it('places files: a node replaces the clear name, keeps its id, and needs an existing folder', async () => {
    const keyId = await createKey(t, 'fe');
    const folder = await createFolder(t, 'fe', null);
    const { file } = await uploadDirect(t, 'fe', {
      keyId,
      size: 10,
      name: 'clear-name.txt',
      contentType: 'text/plain',
    });
    const node = nodeAt(folder.nodeId);
    const res = await t.as('fe', {
      method: 'PUT',
      url: `/api/users/files/${file.fileId}/node`,
      payload: node,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<FileMetadata>()).toMatchObject({
      name: 'encrypted',
      originalFilename: 'encrypted',
      contentType: 'application/octet-stream',
      ...node,
    });
    const listed = (await get('fe', '/api/users/files')).json<{ files: FileListItem[] }>().files;
    expect(listed[0]).toMatchObject({ fileId: file.fileId, name: 'encrypted', ...node });
    const uploads = (await get('fe', '/api/users/uploads')).json<{ uploads: { fileName: string }[] }>();
    expect(uploads.uploads.map((u) => u.fileName)).toEqual(['encrypted']);

    // Rename and move keep the node id; another id is refused, and so is a missing folder.
    const moved = { ...nodeAt(null, node.nodeId) };
    const move = await t.as('fe', {
      method: 'PUT',
      url: `/api/users/files/${file.fileId}/node`,
      payload: moved,
    });
    expect(move.json<FileMetadata>().parentNodeId).toBeNull();
    const otherId = await t.as('fe', {
      method: 'PUT',
      url: `/api/users/files/${file.fileId}/node`,
      payload: nodeAt(null),
    });
    expect(otherId.statusCode).toBe(409);
    const lost = await t.as('fe', {
      method: 'PUT',
      url: `/api/users/files/${file.fileId}/node`,
      payload: nodeAt(randomUUID(), node.nodeId),
    });
    expect(lost.statusCode).toBe(404);
    // A folder cannot take a file's node id, nor an upload a folder's.
    const clash = await t.as('fe', {
      method: 'POST',
      url: '/api/users/folders',
      payload: nodeAt(null, node.nodeId),
    });
    expect(clash.statusCode).toBe(409);
    const upload = await uploadDirect(t, 'fe', { keyId, size: 5 });
    const taken = await t.as('fe', {
      method: 'PUT',
      url: `/api/users/files/${upload.file.fileId}/node`,
      payload: nodeAt(null, folder.nodeId),
    });
    expect(taken.statusCode).toBe(409);
    // Another user's file is answered like a missing one.
    const foreign = await t.as('fe-mal', {
      method: 'PUT',
      url: `/api/users/files/${file.fileId}/node`,
      payload: nodeAt(null),
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'FILE_NOT_FOUND' });
  });

  it('uploads with a node store the name "encrypted", and refuse a missing folder', async () => {
    const keyId = await createKey(t, 'ff');
    const folder = await createFolder(t, 'ff', null);
    const node = nodeAt(folder.nodeId);
    const { file } = await uploadDirect(t, 'ff', {
      keyId,
      size: 10,
      name: 'ff-marker-name.txt',
      fields: { node: JSON.stringify(node) },
    });
    expect(file).toMatchObject({ name: 'encrypted', contentType: 'application/octet-stream', ...node });
    const row = await database.db
      .selectFrom('uploads')
      .select(['file_name', 'content_type'])
      .where('file_id', '=', file.fileId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ file_name: 'encrypted', content_type: 'application/octet-stream' });
    const multipart = await t.as('ff', {
      method: 'POST',
      url: '/api/users/uploads/multipart',
      payload: {
        name: 'x.bin',
        contentType: 'application/pdf',
        size: 10,
        parts: 1,
        isEncrypted: true,
        encryptionInfo: (await get('ff', `/api/users/files/${file.fileId}`)).json<FileMetadata>()
          .encryptionInfo,
        node: nodeAt(randomUUID()),
      },
    });
    expect(multipart.statusCode, multipart.body).toBe(404);

    // The folder deleted while the bytes were on their way: the upload fails, nothing is recorded.
    const doomed = await createFolder(t, 'ff', null);
    const started = await t.as('ff', {
      method: 'POST',
      url: '/api/users/uploads/multipart',
      payload: {
        name: 'x.bin',
        contentType: 'application/pdf',
        size: 10,
        parts: 1,
        isEncrypted: true,
        encryptionInfo: (await get('ff', `/api/users/files/${file.fileId}`)).json<FileMetadata>()
          .encryptionInfo,
        node: nodeAt(doomed.nodeId),
      },
    });
    expect(started.statusCode, started.body).toBe(201);
    const upload = started.json<{ uploadId: string; objectKey: string }>();
    const part = await putPart(t, 'ff', upload, 1, new Uint8Array(10 + 28));
    expect(part.statusCode, part.body).toBe(200);
    expect(
      (await t.as('ff', { method: 'DELETE', url: `/api/users/folders/${doomed.nodeId}` })).statusCode,
    ).toBe(200);
    const completed = await completeMultipart(t, 'ff', upload, [
      { partNumber: 1, etag: part.json<{ etag: string }>().etag },
    ]);
    expect(completed.statusCode, completed.body).toBe(404);
    const files = (await get('ff', '/api/users/files')).json<{ files: FileListItem[] }>().files;
    expect(files.map((f) => f.fileId)).toEqual([file.fileId]);
    expect(await t.blobStore.stat(upload.objectKey)).toBeNull();
  });

  it('shares a folder: the recipient sees the tree, a file added later, downloads it, and loses it all on revoke', async () => {
    const ownerKey = await createKey(t, 'fg-owner');
    const recipientKey = await createKey(t, 'fg-rcpt');
    const shared = await createFolder(t, 'fg-owner', null);
    const sub = await createFolder(t, 'fg-owner', shared.nodeId);
    const outside = await createFolder(t, 'fg-owner', null);
    const before = await uploadInto('fg-owner', ownerKey, sub.nodeId);
    const notShared = await uploadInto('fg-owner', ownerKey, outside.nodeId);

    const grantJson = JSON.stringify({ v: 1, type: 'folder-grant', folderNodeId: shared.nodeId });
    const encryptedFolderKey = wrappedKeyB64();
    const share = await t.as('fg-owner', {
      method: 'POST',
      url: `/api/users/folders/${shared.nodeId}/shares`,
      payload: { email: 'fg-rcpt@example.test', encryptedFolderKey, keyVersion: recipientKey, grantJson },
    });
    expect(share.statusCode, share.body).toBe(201);
    const twice = await t.as('fg-owner', {
      method: 'POST',
      url: `/api/users/folders/${shared.nodeId}/shares`,
      payload: { email: 'fg-rcpt@example.test', encryptedFolderKey, keyVersion: recipientKey, grantJson },
    });
    expect(twice.statusCode).toBe(409);
    expect((await get('fg-owner', `/api/users/folders/${shared.nodeId}/shares`)).json()).toEqual({
      shares: [{ email: 'fg-rcpt@example.test', name: expect.any(String) as string }],
    });

    const list = (await get('fg-rcpt', '/api/users/folders/shared')).json<{ folders: object[] }>();
    expect(list.folders).toEqual([
      expect.objectContaining({
        nodeId: shared.nodeId,
        owner: 'fg-owner@example.test',
        encryptedFolderKey,
        keyVersion: recipientKey,
        grantJson,
        encryptedMetadata: shared.encryptedMetadata,
      }),
    ]);

    const later = await uploadInto('fg-owner', ownerKey, shared.nodeId);
    const nodes = (
      await get('fg-rcpt', `/api/users/folders/shared/${shared.nodeId}/nodes`)
    ).json<SharedFolderNodesResponse>();
    expect(nodes.folder.nodeId).toBe(shared.nodeId);
    expect(nodes.folders.map((f) => f.nodeId)).toEqual([sub.nodeId]);
    expect(nodes.files.map((f) => f.fileId).sort()).toEqual([before.file.fileId, later.file.fileId].sort());
    expect(nodes.files.find((f) => f.fileId === later.file.fileId)).toMatchObject({
      nodeId: later.file.nodeId,
      parentNodeId: shared.nodeId,
      wrappedKey: later.file.wrappedKey,
      size: 50,
    });

    const download = (fileId: string) =>
      get('fg-rcpt', `/api/users/folders/shared/${shared.nodeId}/files/${fileId}/download`);
    const got = await download(later.file.fileId);
    expect(got.statusCode).toBe(200);
    expect(Buffer.compare(got.rawPayload, Buffer.from(later.ciphertext))).toBe(0);
    expect((await download(before.file.fileId)).statusCode).toBe(200);
    expect((await download(notShared.file.fileId)).statusCode).toBe(404);
    expect((await statsOf(t, 'fg-rcpt')).transfers.downloads.count).toBe(2);

    const revoke = await t.as('fg-owner', {
      method: 'DELETE',
      url: `/api/users/folders/${shared.nodeId}/shares/fg-rcpt%40example.test`,
    });
    expect(revoke.statusCode).toBe(200);
    expect((await get('fg-rcpt', '/api/users/folders/shared')).json()).toEqual({ folders: [] });
    expect((await get('fg-rcpt', `/api/users/folders/shared/${shared.nodeId}/nodes`)).statusCode).toBe(404);
    expect((await download(later.file.fileId)).statusCode).toBe(404);
  });

  it('a batch of nodes removes the clear names from the database (the SQLite file greps clean)', async () => {
    const keyId = await createKey(t, 'fi');
    const marker = `fi-marker-${randomUUID()}`;
    const uploads = [];
    for (let i = 0; i < 3; i += 1) {
      uploads.push(
        await uploadDirect(t, 'fi', {
          keyId,
          size: 5,
          name: `${marker}-${i}.pdf`,
          contentType: 'application/pdf',
        }),
      );
    }
    const fileName = (
      await database.db
        .selectFrom('files')
        .select('name')
        .where('id', '=', uploads[0]?.file.fileId ?? '')
        .executeTakeFirstOrThrow()
    ).name;
    expect(fileName).toContain(marker);
    // The names sit in the database file itself (not only in the WAL), as they do after any checkpoint.
    if (dialect === 'sqlite') await sql`pragma wal_checkpoint(TRUNCATE)`.execute(database.db);
    const batch = await t.as('fi', {
      method: 'POST',
      url: '/api/users/files/nodes',
      payload: { files: uploads.map(({ file }) => ({ fileId: file.fileId, ...nodeAt(null) })) },
    });
    expect(batch.statusCode, batch.body).toBe(200);
    const listed = (await get('fi', '/api/users/files')).json<{ files: FileListItem[] }>().files;
    expect(listed.map((f) => f.name)).toEqual(['encrypted', 'encrypted', 'encrypted']);

    const named = async (table: 'files' | 'uploads', column: 'name' | 'file_name') =>
      sql<{
        n: number;
      }>`select count(*) as n from ${sql.table(table)} where ${sql.ref(column)} like ${`%${marker}%`}`.execute(
        database.db,
      );
    expect(Number((await named('files', 'name')).rows[0]?.n)).toBe(0);
    expect(Number((await named('uploads', 'file_name')).rows[0]?.n)).toBe(0);
    if (dialect === 'sqlite') {
      // secure_delete zeroes the old cells; the WAL's copies go once it is checkpointed and reset.
      await sql`pragma wal_checkpoint(TRUNCATE)`.execute(database.db);
      const { rows } = await sql<{ file: string }>`pragma database_list`.execute(database.db);
      const path = rows[0]?.file ?? '';
      expect(path).not.toBe('');
      expect(readFileSync(path).includes(marker)).toBe(false);
      expect(readFileSync(`${path}-wal`).includes(marker)).toBe(false);
    }
    // A batch with one bad file changes nothing.
    const { file } = await uploadDirect(t, 'fi', { keyId, size: 5, name: 'kept.pdf' });
    const refused = await t.as('fi', {
      method: 'POST',
      url: '/api/users/files/nodes',
      payload: {
        files: [
          { fileId: file.fileId, ...nodeAt(null) },
          { fileId: 'no-such-file', ...nodeAt(null) },
        ],
      },
    });
    expect(refused.statusCode).toBe(404);
    expect((await get('fi', `/api/users/files/${file.fileId}`)).json<FileMetadata>().name).toBe('kept.pdf');
  });

  it("gives a file share's recipient the sealed metadata, not the owner's wrap or place", async () => {
    const ownerKey = await createKey(t, 'fj-owner');
    const recipientKey = await createKey(t, 'fj-rcpt');
    const folder = await createFolder(t, 'fj-owner', null);
    const node = nodeAt(folder.nodeId);
    const { file } = await uploadDirect(t, 'fj-owner', {
      keyId: ownerKey,
      size: 10,
      fields: { node: JSON.stringify(node) },
    });
    const share = await t.as('fj-owner', {
      method: 'POST',
      url: `/api/users/files/${file.fileId}/share`,
      payload: { email: 'fj-rcpt@example.test', encryptedFileKey: wrappedKeyB64(), keyVersion: recipientKey },
    });
    expect(share.statusCode, share.body).toBe(201);
    const shared = (await get('fj-rcpt', `/api/users/files/shared/${file.fileId}`)).json<{
      file: FileMetadata;
    }>();
    expect(shared.file).toMatchObject({
      name: 'encrypted',
      nodeId: node.nodeId,
      encryptedMetadata: node.encryptedMetadata,
      nodeRecord: node.nodeRecord,
    });
    expect(shared.file).not.toHaveProperty('wrappedKey');
    expect(shared.file).not.toHaveProperty('parentNodeId');
  });

  it('stores and answers a wrapped drive key and its signed record once per key record', async () => {
    const keyId = await createKey(t, 'fh');
    const wrappedDriveKey = wrappedKeyB64();
    // The server stores the record as sent: the owner's browser checks its signature at unlock.
    const record = (wrapped: string) =>
      JSON.stringify({ v: 1, type: 'drive-key', keyId, wrapped: wrapped.slice(0, 16), signatureB64: 'AA==' });
    const driveKeyRecord = record(wrappedDriveKey);
    const put = (
      user: string,
      id: string,
      value: string,
      payload: object = { driveKeyRecord: record(value) },
    ) =>
      t.as(user, {
        method: 'PUT',
        url: `/api/users/keys/${id}/drive-key`,
        payload: { wrappedDriveKey: value, ...payload },
      });
    // A wrap without its record, or with one that is not a JSON object or is over 4 KiB, is refused.
    expect((await put('fh', keyId, wrappedDriveKey, { driveKeyRecord: undefined })).statusCode).toBe(400);
    expect((await put('fh', keyId, wrappedDriveKey, { driveKeyRecord: 'signed' })).statusCode).toBe(400);
    const oversized = JSON.stringify({ v: 1, padding: 'x'.repeat(4096) });
    expect((await put('fh', keyId, wrappedDriveKey, { driveKeyRecord: oversized })).statusCode).toBe(400);
    expect((await get('fh', '/api/users/keys/active')).json()).not.toHaveProperty('wrappedDriveKey');

    const first = await put('fh', keyId, wrappedDriveKey);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ keyId, wrappedDriveKey, driveKeyRecord });
    expect((await get('fh', '/api/users/keys/active')).json()).toMatchObject({
      wrappedDriveKey,
      driveKeyRecord,
    });
    expect((await get('fh', '/api/users/keys')).json()).toMatchObject({
      keys: [{ keyId, wrappedDriveKey, driveKeyRecord }],
    });
    const again = await put('fh', keyId, wrappedKeyB64());
    expect(again.statusCode).toBe(409);
    expect((await get('fh', '/api/users/keys/active')).json()).toMatchObject({
      wrappedDriveKey,
      driveKeyRecord,
    });
    await createKey(t, 'fh-mal');
    expect((await put('fh-mal', keyId, wrappedKeyB64())).statusCode).toBe(404);
    expect((await put('fh', keyId, 'not base64!')).statusCode).toBe(400);
  });
});
