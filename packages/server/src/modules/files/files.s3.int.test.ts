import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlobStore } from '../../infra/storage/blob-store.js';
import { createBlobStore } from '../../infra/storage/blob-store.factory.js';
import type { S3TestServer } from '../../infra/storage/s3-test-server.js';
import { startS3TestServer } from '../../infra/storage/s3-test-server.js';
import { startTestApp } from '../../test/app-harness.js';
import type { TestApp } from '../../test/app-harness.js';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import {
  completeMultipart,
  createKey,
  directUploadForm,
  putPart,
  startMultipart,
  uploadDirect,
  uploadMultipart,
} from './files.test-helpers.js';

/** The data path against S3 (a real s3rver on loopback): what differs from the fs store is the store. */
describe.each(dialectsUnderTest)('files on S3 ($name)', ({ open }) => {
  let database: TestDatabase;
  let s3: S3TestServer;
  let store: BlobStore;
  let t: TestApp;

  beforeAll(async () => {
    database = await open();
    s3 = await startS3TestServer();
    store = createBlobStore({
      kind: 's3',
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: s3.credentials,
    });
    t = await startTestApp({ database, overrides: { blobStore: store } });
  });
  afterAll(async () => {
    await t.close();
    await s3.close();
    await database.destroy();
  });

  it('stores a direct upload in the bucket and streams it back, whole and in ranges', async () => {
    const keyId = await createKey(t, 'ann');
    const { file, ciphertext } = await uploadDirect(t, 'ann', { keyId, size: 300_000 });
    const bytes = Buffer.from(ciphertext);
    expect(await store.stat(`u/${file.ownerId}/${file.fileId}`)).toEqual({ size: bytes.length });

    const url = `/api/users/files/${file.fileId}/download`;
    const whole = await t.as('ann', { method: 'GET', url });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-length']).toBe(String(bytes.length));
    expect(whole.rawPayload.equals(bytes)).toBe(true);
    for (const [range, start, end] of [
      ['bytes=1000-1999', 1000, 1999],
      ['bytes=299000-', 299_000, bytes.length - 1],
      ['bytes=-100', bytes.length - 100, bytes.length - 1],
    ] as const) {
      const res = await t.as('ann', { method: 'GET', url, headers: { range } });
      expect(res.statusCode, range).toBe(206);
      expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${bytes.length}`);
      expect(res.rawPayload.equals(bytes.subarray(start, end + 1)), range).toBe(true);
    }
    const beyond = await t.as('ann', { method: 'GET', url, headers: { range: `bytes=${bytes.length}-` } });
    expect(beyond.statusCode).toBe(416);

    await t.as('ann', { method: 'DELETE', url: `/api/users/files/${file.fileId}` });
    expect(await store.stat(`u/${file.ownerId}/${file.fileId}`)).toBeNull();
  });

  it('keeps nothing in the bucket when the ciphertext has the wrong length', async () => {
    const keyId = await createKey(t, 'ben');
    const form = directUploadForm({ keyId, size: 1000, ciphertext: randomBytes(1029) });
    const res = await t.as('ben', { method: 'POST', url: '/api/users/uploads/direct', ...form });
    expect(res.statusCode).toBe(400);
    const uploads = (await t.as('ben', { method: 'GET', url: '/api/users/uploads' })).json<{
      uploads: { objectKey: string; status: string }[];
    }>().uploads;
    expect(uploads).toMatchObject([{ status: 'failed' }]);
    expect(await store.stat(uploads[0]?.objectKey ?? 'x')).toBeNull();
  });

  it('assembles a multipart upload with S3 etags, and aborts one', async () => {
    const keyId = await createKey(t, 'cy');
    const { file, ciphertext } = await uploadMultipart(t, 'cy', { keyId, size: 5000 });
    const res = await t.as('cy', { method: 'GET', url: `/api/users/files/${file.fileId}/download` });
    expect(res.rawPayload.equals(Buffer.from(ciphertext))).toBe(true);

    const upload = await startMultipart(t, 'cy', { keyId, size: 100 });
    const first = await putPart(t, 'cy', upload, 1, randomBytes(128));
    const second = await putPart(t, 'cy', upload, 1, randomBytes(128));
    expect(first.statusCode).toBe(200);
    const stale = await completeMultipart(t, 'cy', upload, [
      { partNumber: 1, etag: first.json<{ etag: string }>().etag },
    ]);
    // Re-sent with different bytes, the part has another etag; the first no longer completes it.
    expect(stale.statusCode).toBe(400);
    expect(second.json<{ etag: string }>().etag).not.toBe(first.json<{ etag: string }>().etag);
    const aborted = await t.as('cy', {
      method: 'DELETE',
      url: `/api/users/uploads/multipart/${upload.uploadId}`,
    });
    expect(aborted.statusCode).toBe(200);
    expect((await putPart(t, 'cy', upload, 1, randomBytes(128))).statusCode).toBe(400);
    expect(await store.stat(upload.objectKey)).toBeNull();
  });
});
