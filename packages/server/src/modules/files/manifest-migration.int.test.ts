import { createHash, randomBytes } from 'node:crypto';
import type { FileMetadata, NewEncryptionInfo, SharedFileMetadata } from '@coffer/contracts';
import { CHUNK_SIZE } from '@coffer/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/app-harness.js';
import type { TestApp } from '../../test/app-harness.js';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { encryptionInfoFor, wrappedKeyB64 } from '../../test/factories.js';
import { nodeAt } from '../folders/folders.test-helpers.js';
import { createKey, uploadDirect } from './files.test-helpers.js';

// Issue 31: the migration of a clear name signs the file's manifest again (version 2, no name) and
// every share's grant over it; the server swaps manifest, grants and name together or not at all.
// The server checks no signature (readers do), so hand-made records of the right shape stand in.

const hex = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const hexOfB64 = (b64: string) => hex(Buffer.from(b64, 'base64'));
const signature = () => randomBytes(64).toString('base64');
const SIZE = 10;

function manifestV1(info: NewEncryptionInfo, name: string): string {
  return JSON.stringify({
    v: 1,
    type: 'file-manifest',
    ownerEmail: 'owner@example.test',
    ownerKeyId: info.version,
    ownerWrappedKeySha256Hex: hexOfB64(info.encryptedFileKey),
    name,
    contentType: 'application/pdf',
    size: SIZE,
    chunkSize: CHUNK_SIZE,
    chunkCount: 1,
    signedAt: '2026-01-02T03:04:05.000Z',
    signatureB64: signature(),
  });
}

function manifestV2(info: NewEncryptionInfo, encryptedMetadata: string, change: object = {}): string {
  return JSON.stringify({
    v: 2,
    type: 'file-manifest',
    ownerEmail: 'owner@example.test',
    ownerKeyId: info.version,
    ownerWrappedKeySha256Hex: hexOfB64(info.encryptedFileKey),
    metadataSha256Hex: hexOfB64(encryptedMetadata),
    size: SIZE,
    chunkSize: CHUNK_SIZE,
    chunkCount: 1,
    signedAt: '2026-01-03T03:04:05.000Z',
    ...change,
    signatureB64: signature(),
  });
}

function grant(
  fileId: string,
  recipient: string,
  keyId: string,
  wrappedKey: string,
  manifest: string,
): string {
  return JSON.stringify({
    v: 1,
    type: 'share-grant',
    fileId,
    ownerEmail: 'owner@example.test',
    recipientEmail: recipient,
    recipientKeyId: keyId,
    recipientKeySha256Hex: hex('recipient spki'),
    wrappedKeySha256Hex: hexOfB64(wrappedKey),
    manifestSha256Hex: hex(manifest),
    signedAt: '2026-01-02T03:05:05.000Z',
    signatureB64: signature(),
  });
}

describe.each(dialectsUnderTest)('manifest signed again with the migration ($name)', ({ open }) => {
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

  /** A file from before issue 31: clear name, a version 1 manifest naming it, shared with a grant over it. */
  async function oldSharedFile(owner: string, recipient: string, marker: string) {
    const ownerKey = await createKey(t, owner);
    const recipientKey = await createKey(t, recipient);
    const info = encryptionInfoFor(ownerKey);
    const oldManifest = manifestV1(info, `${marker}.pdf`);
    const { file } = await uploadDirect(t, owner, {
      keyId: ownerKey,
      size: SIZE,
      name: `${marker}.pdf`,
      fields: { encryptionInfo: JSON.stringify(info), manifest: oldManifest },
    });
    const recipientWrap = wrappedKeyB64();
    const recipientEmail = `${recipient}@example.test`;
    const oldGrant = grant(file.fileId, recipientEmail, recipientKey, recipientWrap, oldManifest);
    const share = await t.as(owner, {
      method: 'POST',
      url: `/api/users/files/${file.fileId}/share`,
      payload: {
        email: recipientEmail,
        encryptedFileKey: recipientWrap,
        keyVersion: recipientKey,
        shareGrant: oldGrant,
      },
    });
    expect(share.statusCode, share.body).toBe(201);
    const node = nodeAt(null);
    const newManifest = manifestV2(info, node.encryptedMetadata);
    const newGrant = grant(file.fileId, recipientEmail, recipientKey, recipientWrap, newManifest);
    return {
      fileId: file.fileId,
      info,
      node,
      oldManifest,
      oldGrant,
      newManifest,
      shareGrants: [{ email: recipientEmail, shareGrant: newGrant }],
      recipientWrap,
      recipientKey,
      recipientEmail,
    };
  }

  const stored = async (fileId: string) => ({
    file: await database.db
      .selectFrom('files')
      .select(['name', 'content_type', 'manifest', 'node_id'])
      .where('id', '=', fileId)
      .executeTakeFirstOrThrow(),
    grants: (
      await database.db.selectFrom('shares').select('share_grant').where('file_id', '=', fileId).execute()
    ).map((row) => row.share_grant),
  });
  const migrate = (user: string, files: object[]) =>
    t.as(user, { method: 'POST', url: '/api/users/files/nodes', payload: { files } });

  it('swaps the manifest, every grant and the clear name in one step; no clear name is left in any row', async () => {
    const marker = `mm-${randomBytes(6).toString('hex')}`;
    const old = await oldSharedFile('mm-a', 'mm-a-rcpt', marker);
    const owned = (
      await t.as('mm-a', { method: 'GET', url: `/api/users/files/${old.fileId}` })
    ).json<FileMetadata>();
    expect(owned.shareGrants).toEqual([{ email: old.recipientEmail, shareGrant: old.oldGrant }]);

    const res = await migrate('mm-a', [
      { fileId: old.fileId, ...old.node, manifest: old.newManifest, shareGrants: old.shareGrants },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(await stored(old.fileId)).toEqual({
      file: {
        name: 'encrypted',
        content_type: 'application/octet-stream',
        manifest: old.newManifest,
        node_id: old.node.nodeId,
      },
      grants: [old.shareGrants[0]?.shareGrant],
    });
    const rows = JSON.stringify([
      await database.db.selectFrom('files').selectAll().execute(),
      await database.db.selectFrom('shares').selectAll().execute(),
      await database.db.selectFrom('uploads').selectAll().execute(),
    ]);
    expect(rows).not.toContain(marker);
    // The recipient is served the new manifest and the grant over it.
    const shared = (
      await t.as('mm-a-rcpt', { method: 'GET', url: `/api/users/files/shared/${old.fileId}` })
    ).json<SharedFileMetadata>();
    expect(shared.file.manifest).toBe(old.newManifest);
    expect(shared.shareGrant).toBe(old.shareGrants[0]?.shareGrant);
    expect(shared.file.encryptedMetadata).toBe(old.node.encryptedMetadata);

    // A move keeps the metadata: no new manifest needed. New metadata without one is refused.
    const moved = await t.as('mm-a', {
      method: 'PUT',
      url: `/api/users/files/${old.fileId}/node`,
      payload: { ...old.node, nodeRecord: nodeAt(null, old.node.nodeId).nodeRecord },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const renamed = nodeAt(null, old.node.nodeId);
    const stale = await t.as('mm-a', {
      method: 'PUT',
      url: `/api/users/files/${old.fileId}/node`,
      payload: renamed,
    });
    expect(stale.statusCode, stale.body).toBe(409);
    const resigned = await t.as('mm-a', {
      method: 'PUT',
      url: `/api/users/files/${old.fileId}/node`,
      payload: {
        ...renamed,
        manifest: manifestV2(old.info, renamed.encryptedMetadata),
        shareGrants: old.shareGrants,
      },
    });
    expect(resigned.statusCode, resigned.body).toBe(200);
  });

  it('refuses, and changes nothing: no manifest, a version 1 one, bad JSON, another file’s, missing or wrong grants', async () => {
    const marker = `mm-${randomBytes(6).toString('hex')}`;
    const old = await oldSharedFile('mm-b', 'mm-b-rcpt', marker);
    const other = await oldSharedFile('mm-b2', 'mm-b2-rcpt', `${marker}-other`);
    const before = await stored(old.fileId);
    const item = { fileId: old.fileId, ...old.node, manifest: old.newManifest, shareGrants: old.shareGrants };
    const bare = { fileId: old.fileId, ...old.node };
    const otherWrapGrant = grant(
      old.fileId,
      old.recipientEmail,
      old.recipientKey,
      wrappedKeyB64(),
      old.newManifest,
    );
    const cases: [string, object, number][] = [
      ['no manifest (the clear name would stay in it)', bare, 409],
      ['a version 1 manifest', { ...item, manifest: old.oldManifest }, 400],
      ['a manifest that is not JSON', { ...item, manifest: '{"v":2,' }, 400],
      [
        'a manifest with a name member',
        { ...item, manifest: manifestV2(old.info, old.node.encryptedMetadata, { name: marker }) },
        400,
      ],
      [
        'another file’s manifest',
        { ...item, manifest: manifestV2(other.info, old.node.encryptedMetadata) },
        400,
      ],
      [
        'a manifest of other metadata',
        { ...item, manifest: manifestV2(old.info, nodeAt(null).encryptedMetadata) },
        400,
      ],
      [
        'another size',
        { ...item, manifest: manifestV2(old.info, old.node.encryptedMetadata, { size: SIZE + 1 }) },
        400,
      ],
      ['no grants', { ...item, shareGrants: [] }, 409],
      [
        'a grant for another wrapped key',
        { ...item, shareGrants: [{ email: old.recipientEmail, shareGrant: otherWrapGrant }] },
        400,
      ],
      [
        'a grant for someone without a share',
        {
          ...item,
          shareGrants: [...old.shareGrants, { email: 'x@example.test', shareGrant: otherWrapGrant }],
        },
        409,
      ],
      ['grants without a manifest', { ...bare, shareGrants: old.shareGrants }, 400],
    ];
    for (const [what, payload, status] of cases) {
      const res = await migrate('mm-b', [payload]);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(status);
      expect(await stored(old.fileId), what).toEqual(before);
    }
    // One bad file refuses the whole batch: the good one is not migrated either.
    const batch = await migrate('mm-b', [item, { ...item, fileId: other.fileId }]);
    expect(batch.statusCode).toBe(400);
    expect(await stored(old.fileId)).toEqual(before);
    // The single-file call refuses the same way.
    const single = await t.as('mm-b', {
      method: 'PUT',
      url: `/api/users/files/${old.fileId}/node`,
      payload: old.node,
    });
    expect(single.statusCode).toBe(409);
    expect(await stored(old.fileId)).toEqual(before);
    expect(before.file.manifest).toContain(marker);
  });

  it('marks a file an older migration placed with its version 1 manifest, until its owner signs it again', async () => {
    // Session 14's migration placed files without signing their manifest again: the node is set, the
    // name column is sealed, but the stored manifest (and the grant over it) still names the file.
    const marker = `mm-${randomBytes(6).toString('hex')}`;
    const old = await oldSharedFile('mm-c', 'mm-c-rcpt', marker);
    const fresh = await oldSharedFile('mm-c', 'mm-c-rcpt2', `${marker}-fresh`);
    await database.db
      .updateTable('files')
      .set({
        node_id: old.node.nodeId,
        parent_node_id: null,
        wrapped_key: old.node.wrappedKey,
        encrypted_metadata: old.node.encryptedMetadata,
        node_record: old.node.nodeRecord,
        name: 'encrypted',
        content_type: 'application/octet-stream',
      })
      .where('id', '=', old.fileId)
      .execute();
    const freshMigrated = await migrate('mm-c', [
      { fileId: fresh.fileId, ...fresh.node, manifest: fresh.newManifest, shareGrants: fresh.shareGrants },
    ]);
    expect(freshMigrated.statusCode, freshMigrated.body).toBe(200);
    const flags = async () =>
      Object.fromEntries(
        (await t.as('mm-c', { method: 'GET', url: '/api/users/files' }))
          .json<{ files: { fileId: string; clearManifest?: boolean }[] }>()
          .files.map((file) => [file.fileId, file.clearManifest ?? false]),
      );
    expect(await flags()).toEqual({ [old.fileId]: true, [fresh.fileId]: false });
    expect((await stored(old.fileId)).file.manifest).toContain(marker);
    // The list says which files are shared (the cards ask for the names only then).
    const shared = (await t.as('mm-c', { method: 'GET', url: '/api/users/files?limit=10' }))
      .json<{ files: { shared?: boolean }[] }>()
      .files.map((file) => file.shared);
    expect(shared).toEqual([true, true]);

    // The owner's browser signs it again: manifest, grants and node record swapped by the node call.
    const repaired = await t.as('mm-c', {
      method: 'PUT',
      url: `/api/users/files/${old.fileId}/node`,
      payload: { ...old.node, manifest: old.newManifest, shareGrants: old.shareGrants },
    });
    expect(repaired.statusCode, repaired.body).toBe(200);
    expect(await flags()).toEqual({ [old.fileId]: false, [fresh.fileId]: false });
    const rows = JSON.stringify([
      await database.db.selectFrom('files').selectAll().execute(),
      await database.db.selectFrom('shares').selectAll().execute(),
      await database.db.selectFrom('uploads').selectAll().execute(),
    ]);
    expect(rows).not.toContain(marker);
  });
});
