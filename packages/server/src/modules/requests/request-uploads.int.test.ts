import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  chunkCountFor,
  DEFAULT_CONTENT_TYPE,
  ENCRYPTED_FILE_NAME,
  type FileListItem,
  type FileMetadata,
  type LinksResponse,
} from '@coffer/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/app-harness.js';
import type { TestApp } from '../../test/app-harness.js';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { encryptionInfoFor } from '../../test/factories.js';
import { createKey, directUploadForm } from '../files/files.test-helpers.js';
import { CLEAR_NAME_MESSAGE, SIGN_IN_REQUIRED_MESSAGE } from './request-uploads.service.js';

// Uploads through a file request by a person without an account: the files land in the owner's
// files marked with the request; the request's limits hold when uploaders race; a cancelled upload
// stops counting; the server keeps no clear name of them; signed-in-only requests take files from
// signed-in people, and the owner sees who sent what.

const newId = () => randomBytes(16).toString('base64url');

/** What the uploader's browser sends of a file's name: sealed under the file key (random bytes here). */
const sealedMetadata = () => ({
  nodeId: randomUUID(),
  encryptedMetadata: randomBytes(80).toString('base64'),
});
/** The name and type a request upload sends in clear: the fixed stand-ins, and the sealed metadata. */
const sealedFields = () => ({
  name: ENCRYPTED_FILE_NAME,
  contentType: DEFAULT_CONTENT_TYPE,
  sealedMetadata: JSON.stringify(sealedMetadata()),
});

describe.each(dialectsUnderTest)('file request uploads ($name)', ({ open }) => {
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

  async function setUp(prefix: string, limits: { maxFiles: number; maxBytes: number }) {
    const owner = `${prefix}-owner`;
    const keyId = await createKey(t, owner);
    const auth = randomBytes(32);
    const requestId = newId();
    const res = await t.as(owner, {
      method: 'POST',
      url: '/api/users/requests',
      payload: {
        requestId,
        expiresAt: null,
        ...limits,
        message: null,
        signedInOnly: false,
        authKeyHash: createHash('sha256').update(auth).digest('hex'),
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return { owner, keyId, requestId, headers: { 'x-link-auth': auth.toString('base64url') } };
  }

  const direct = (
    requestId: string,
    headers: Record<string, string>,
    keyId: string,
    size: number,
    ip = '127.0.0.1',
    fields: Record<string, string> = sealedFields(),
  ) => {
    const form = directUploadForm({ keyId, size, fields });
    return t.app.inject({
      method: 'POST',
      url: `/api/public/requests/${requestId}/uploads/direct`,
      payload: form.payload,
      headers: { ...form.headers, ...headers },
      remoteAddress: ip,
    });
  };
  const startMultipart = (
    requestId: string,
    headers: Record<string, string>,
    keyId: string,
    size: number,
    naming: Record<string, unknown> = {
      name: ENCRYPTED_FILE_NAME,
      contentType: DEFAULT_CONTENT_TYPE,
      sealedMetadata: sealedMetadata(),
    },
  ) =>
    t.app.inject({
      method: 'POST',
      url: `/api/public/requests/${requestId}/uploads/multipart`,
      headers,
      payload: {
        ...naming,
        size,
        parts: chunkCountFor(size),
        isEncrypted: true,
        encryptionInfo: encryptionInfoFor(keyId),
      },
    });

  it("lands the uploader's file in the owner's files, marked with the request, and lists it on the request", async () => {
    const { owner, keyId, requestId, headers } = await setUp('lands', { maxFiles: 5, maxBytes: 1_000_000 });
    const res = await direct(requestId, headers, keyId, 1234);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const file = res.json<FileListItem>();
    expect(file.ownerId).toBeDefined();
    const mine = await t.as(owner, { method: 'GET', url: `/api/users/files/${file.fileId}` });
    expect(mine.statusCode).toBe(200);
    const listed = (await t.as(owner, { method: 'GET', url: '/api/users/links' })).json<LinksResponse>();
    expect(listed.requests[0]).toMatchObject({
      requestId,
      fileIds: [file.fileId],
      filesUsed: 1,
      bytesUsed: 1234,
    });
    const info = await t.app.inject({ method: 'GET', url: `/api/public/requests/${requestId}`, headers });
    expect(info.json()).toMatchObject({ filesLeft: 4, bytesLeft: 1_000_000 - 1234 });
    // A wrong proof uploads nothing.
    expect(
      (await direct(requestId, { 'x-link-auth': randomBytes(32).toString('base64url') }, keyId, 10))
        .statusCode,
    ).toBe(401);
  });

  it('lets exactly the allowed number of files through when uploaders race', async () => {
    const { keyId, requestId, headers } = await setUp('files', { maxFiles: 3, maxBytes: 10_000_000 });
    const results = await Promise.all(
      Array.from({ length: 7 }, (_, i) => direct(requestId, headers, keyId, 100, `10.1.0.${i}`)),
    );
    const statuses = results.map((res) => res.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    // Refused by the limit (403), or by the request being full already (the one 404).
    expect(
      statuses.filter((status) => status !== 201).every((status) => status === 403 || status === 404),
    ).toBe(true);
    const full = await t.app.inject({ method: 'GET', url: `/api/public/requests/${requestId}`, headers });
    expect(full.statusCode).toBe(404);
    expect(full.json()).toMatchObject({ code: 'LINK_UNAVAILABLE' });
  });

  it('lets exactly the allowed bytes through when uploaders race', async () => {
    const { keyId, requestId, headers } = await setUp('bytes', { maxFiles: 100, maxBytes: 2500 });
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => direct(requestId, headers, keyId, 1000, `10.2.0.${i}`)),
    );
    expect(results.filter((res) => res.statusCode === 201)).toHaveLength(2);
  });

  it('counts an upload in progress against the request, and stops counting it once the uploader cancels', async () => {
    const { keyId, requestId, headers } = await setUp('cancel', { maxFiles: 1, maxBytes: 10_000_000 });
    const started = await startMultipart(requestId, headers, keyId, 5000);
    expect(started.statusCode, started.body).toBe(201);
    const { uploadId } = started.json<{ uploadId: string }>();
    // (A direct upload: a second multipart one would meet the plan's limit of uploads in progress first.)
    expect((await direct(requestId, headers, keyId, 100)).statusCode).toBe(403);
    const other = await setUp('cancel-other', { maxFiles: 1, maxBytes: 100 });
    // Another request's proof cannot touch this upload.
    const foreign = await t.app.inject({
      method: 'DELETE',
      url: `/api/public/requests/${other.requestId}/uploads/multipart/${uploadId}`,
      headers: other.headers,
    });
    expect(foreign.statusCode).toBe(404);
    const aborted = await t.app.inject({
      method: 'DELETE',
      url: `/api/public/requests/${requestId}/uploads/multipart/${uploadId}`,
      headers,
    });
    expect(aborted.statusCode, aborted.body).toBe(200);
    expect((await direct(requestId, headers, keyId, 100)).statusCode).toBe(201);
  });

  it('refuses uploads to a closed request with the one 404', async () => {
    const { owner, keyId, requestId, headers } = await setUp('closed', { maxFiles: 5, maxBytes: 100_000 });
    await t.as(owner, {
      method: 'PATCH',
      url: `/api/users/requests/${requestId}`,
      payload: { closed: true },
    });
    const res = await direct(requestId, headers, keyId, 10);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'LINK_UNAVAILABLE' });
  });

  it('stores no clear name: a clear name, a node or a manifest is refused; the sealed metadata is kept for the owner to place', async () => {
    const { owner, keyId, requestId, headers } = await setUp('sealed', { maxFiles: 5, maxBytes: 1_000_000 });
    const marker = `zz-request-marker-${randomUUID()}.pdf`;
    // What a client that sends names in clear would send: refused, on both upload calls.
    const clear = await direct(requestId, headers, keyId, 10, '127.0.0.1', {
      name: marker,
      contentType: 'application/pdf',
    });
    expect(clear.statusCode, clear.body).toBe(400);
    expect(clear.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: CLEAR_NAME_MESSAGE });
    const clearBeside = await direct(requestId, headers, keyId, 10, '127.0.0.1', {
      ...sealedFields(),
      name: marker,
    });
    expect(clearBeside.statusCode).toBe(400);
    const clearMultipart = await startMultipart(requestId, headers, keyId, 5000, {
      name: marker,
      contentType: 'application/pdf',
    });
    expect(clearMultipart.statusCode).toBe(400);
    // A manifest names the file; a node would place it in the owner's drive: only the owner makes those.
    const manifest = await direct(requestId, headers, keyId, 10, '127.0.0.1', {
      ...sealedFields(),
      manifest: JSON.stringify({ v: 1, type: 'file-manifest', name: marker }),
    });
    expect(manifest.statusCode).toBe(400);

    const sealed = sealedMetadata();
    const res = await direct(requestId, headers, keyId, 1234, '127.0.0.1', {
      name: ENCRYPTED_FILE_NAME,
      contentType: DEFAULT_CONTENT_TYPE,
      sealedMetadata: JSON.stringify(sealed),
    });
    expect(res.statusCode, res.body).toBe(201);
    const { fileId } = res.json<FileListItem>();
    // Nothing the server stores holds the marker: the rows keep the stand-ins and the sealed metadata.
    const fileRow = await database.db
      .selectFrom('files')
      .selectAll()
      .where('id', '=', fileId)
      .executeTakeFirst();
    expect(fileRow).toMatchObject({
      name: ENCRYPTED_FILE_NAME,
      content_type: DEFAULT_CONTENT_TYPE,
      node_id: sealed.nodeId,
      encrypted_metadata: sealed.encryptedMetadata,
      wrapped_key: null,
      node_record: null,
      request_id: requestId,
    });
    const stored = JSON.stringify([
      await database.db
        .selectFrom('files')
        .selectAll()
        .where('owner_id', '=', fileRow?.owner_id ?? '')
        .execute(),
      await database.db
        .selectFrom('uploads')
        .selectAll()
        .where('user_id', '=', fileRow?.owner_id ?? '')
        .execute(),
    ]);
    expect(stored).not.toContain('zz-request-marker');
    // The owner gets the node id and the sealed metadata (no place yet), to open and place the file.
    const mine = await t.as(owner, { method: 'GET', url: `/api/users/files/${fileId}` });
    expect(mine.json<FileMetadata>()).toMatchObject({
      name: ENCRYPTED_FILE_NAME,
      nodeId: sealed.nodeId,
      encryptedMetadata: sealed.encryptedMetadata,
    });
    expect(mine.json<FileMetadata>().wrappedKey).toBeUndefined();
    // The owner's browser places it under the node id the uploader chose (and no other).
    const node = {
      nodeId: sealed.nodeId,
      parentNodeId: null,
      wrappedKey: randomBytes(60).toString('base64'),
      encryptedMetadata: sealed.encryptedMetadata,
      nodeRecord: JSON.stringify({ v: 1, type: 'node' }),
    };
    const other = await t.as(owner, {
      method: 'PUT',
      url: `/api/users/files/${fileId}/node`,
      payload: { ...node, nodeId: randomUUID() },
    });
    expect(other.statusCode).toBe(409);
    const placed = await t.as(owner, {
      method: 'PUT',
      url: `/api/users/files/${fileId}/node`,
      payload: node,
    });
    expect(placed.statusCode, placed.body).toBe(200);
    expect(placed.json<FileMetadata>()).toMatchObject({ nodeId: sealed.nodeId, wrappedKey: node.wrappedKey });
    // The signed-in upload calls take no uploader-sealed metadata: an owner seals and places their own.
    const form = directUploadForm({ keyId, size: 10, fields: sealedFields() });
    const own = await t.as(owner, {
      method: 'POST',
      url: '/api/users/uploads/direct',
      payload: form.payload,
      headers: form.headers,
    });
    expect(own.statusCode).toBe(400);
  });

  it('takes files through a signed-in-only request from signed-in people only, and tells the owner who sent them', async () => {
    const owner = 'only-owner';
    const keyId = await createKey(t, owner);
    const auth = randomBytes(32);
    const requestId = newId();
    const made = await t.as(owner, {
      method: 'POST',
      url: '/api/users/requests',
      payload: {
        requestId,
        expiresAt: null,
        maxFiles: 5,
        maxBytes: 100_000,
        message: null,
        signedInOnly: true,
        authKeyHash: createHash('sha256').update(auth).digest('hex'),
      },
    });
    expect(made.statusCode).toBe(201);
    const proof = { 'x-link-auth': auth.toString('base64url') };
    // Signed out: 401 with a body that says what to do.
    const refused = await direct(requestId, proof, keyId, 10);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ code: 'UNAUTHORIZED', message: SIGN_IN_REQUIRED_MESSAGE });
    const refusedMultipart = await startMultipart(requestId, proof, keyId, 5000);
    expect(refusedMultipart.statusCode).toBe(401);
    // A token that does not verify is no sign-in either.
    const forged = await direct(requestId, { ...proof, authorization: 'Bearer not-a-token' }, keyId, 10);
    expect(forged.statusCode).toBe(401);
    // Signed in (the request page sends the bearer token with the link proof): taken, and recorded.
    const signedIn = { ...proof, authorization: `Bearer ${await t.tokenFor('only-sender')}` };
    const sent = await direct(requestId, signedIn, keyId, 10);
    expect(sent.statusCode, sent.body).toBe(201);
    const { fileId } = sent.json<FileListItem>();
    const started = await startMultipart(requestId, signedIn, keyId, 5000);
    expect(started.statusCode, started.body).toBe(201);
    const listed = (await t.as(owner, { method: 'GET', url: '/api/users/links' })).json<LinksResponse>();
    expect(listed.requests.find((request) => request.requestId === requestId)).toMatchObject({
      fileIds: [fileId],
      senders: [{ fileId, email: 'only-sender@example.test' }],
    });
    // Anyone's files through an open request name no sender.
    const open = await setUp('open-senders', { maxFiles: 5, maxBytes: 100_000 });
    expect((await direct(open.requestId, { ...signedIn, ...open.headers }, open.keyId, 10)).statusCode).toBe(
      201,
    );
    const openListed = (
      await t.as(open.owner, { method: 'GET', url: '/api/users/links' })
    ).json<LinksResponse>();
    expect(openListed.requests[0]?.senders).toEqual([]);
  });
});
