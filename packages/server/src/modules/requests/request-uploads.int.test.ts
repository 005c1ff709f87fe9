import { createHash, randomBytes } from 'node:crypto';
import { chunkCountFor, type FileListItem, type LinksResponse } from '@coffer/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/app-harness.js';
import type { TestApp } from '../../test/app-harness.js';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { encryptionInfoFor } from '../../test/factories.js';
import { createKey, directUploadForm } from '../files/files.test-helpers.js';

// Uploads through a file request by a person without an account: the files land in the owner's
// files marked with the request; the request's limits hold when uploaders race; a cancelled upload
// stops counting.

const newId = () => randomBytes(16).toString('base64url');

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
  ) => {
    const form = directUploadForm({ keyId, size });
    return t.app.inject({
      method: 'POST',
      url: `/api/public/requests/${requestId}/uploads/direct`,
      payload: form.payload,
      headers: { ...form.headers, ...headers },
      remoteAddress: ip,
    });
  };
  const startMultipart = (requestId: string, headers: Record<string, string>, keyId: string, size: number) =>
    t.app.inject({
      method: 'POST',
      url: `/api/public/requests/${requestId}/uploads/multipart`,
      headers,
      payload: {
        name: 'big.bin',
        contentType: 'application/octet-stream',
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

  it('refuses uploads to a closed request with the one 404, and to a signed-in-only request', async () => {
    const { owner, keyId, requestId, headers } = await setUp('closed', { maxFiles: 5, maxBytes: 100_000 });
    await t.as(owner, {
      method: 'PATCH',
      url: `/api/users/requests/${requestId}`,
      payload: { closed: true },
    });
    const res = await direct(requestId, headers, keyId, 10);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'LINK_UNAVAILABLE' });

    const auth = randomBytes(32);
    const signedInOnly = newId();
    const made = await t.as(owner, {
      method: 'POST',
      url: '/api/users/requests',
      payload: {
        requestId: signedInOnly,
        expiresAt: null,
        maxFiles: 5,
        maxBytes: 100_000,
        message: null,
        signedInOnly: true,
        authKeyHash: createHash('sha256').update(auth).digest('hex'),
      },
    });
    expect(made.statusCode).toBe(201);
    const refused = await direct(signedInOnly, { 'x-link-auth': auth.toString('base64url') }, keyId, 10);
    expect(refused.statusCode).toBe(403);
  });
});
