import { randomBytes } from 'node:crypto';
import type { MultipartUploadState, UploadsResponse } from '@coffer/contracts';
import { CHUNK_SIZE, encryptedPartSizeFor } from '@coffer/contracts';
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
  putPart,
  startMultipart,
  uploadDirect,
} from '../files/files.test-helpers.js';

const HOUR = 3600 * 1000;
const stores = ['fs', 's3'] as const;
const cases = dialectsUnderTest.flatMap((dialect) => stores.map((store) => ({ ...dialect, store })));

/** GET /users/uploads/multipart/:uploadId: what an unfinished upload holds, for resuming it. */
describe.each(cases)('resuming an upload ($name, $store)', ({ open, store }) => {
  let database: TestDatabase;
  let s3: S3TestServer | undefined;
  let t: TestApp;
  let clock = Date.now();

  beforeAll(async () => {
    database = await open();
    let blobStore: BlobStore | undefined;
    if (store === 's3') {
      s3 = await startS3TestServer();
      blobStore = createBlobStore({
        kind: 's3',
        bucket: s3.bucket,
        endpoint: s3.endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: s3.credentials,
      });
    }
    t = await startTestApp({
      database,
      env: { UPLOAD_EXPIRY_HOURS: '2' },
      overrides: { now: () => new Date(clock), ...(blobStore === undefined ? {} : { blobStore }) },
    });
  });
  afterAll(async () => {
    await t.close();
    await s3?.close();
    await database.destroy();
  });

  const stateOf = (user: string, uploadId: string) =>
    t.as(user, { method: 'GET', url: `/api/users/uploads/multipart/${encodeURIComponent(uploadId)}` });

  it('lists the parts held, with sizes and ETags, and the encryption info as sent', async () => {
    const keyId = await createKey(t, 'ada');
    // Two parts: part 1 is a whole chunk, part 2 is 128 bytes. Only part 2 is sent here.
    const size = CHUNK_SIZE + 100;
    const upload = await startMultipart(t, 'ada', { keyId, size, name: 'holiday.mov' });

    const empty = await stateOf('ada', upload.uploadId);
    expect(empty.statusCode).toBe(200);
    expect(empty.json<MultipartUploadState>()).toMatchObject({
      uploadId: upload.uploadId,
      objectKey: upload.objectKey,
      fileName: 'holiday.mov',
      contentType: 'video/mp4',
      size,
      parts: 2,
      heldParts: [],
      encryptionInfo: { version: keyId, format: 'coffer-v1', chunkSize: CHUNK_SIZE },
    });
    // The owner-wrapped file key exactly as stored at the start.
    const listed = (await t.as('ada', { method: 'GET', url: '/api/users/uploads' })).json<UploadsResponse>();
    expect(empty.json<MultipartUploadState>().encryptionInfo).toEqual(listed.uploads[0]?.encryptionInfo);

    const last = randomBytes(encryptedPartSizeFor(size, 2) ?? 0);
    const put = await putPart(t, 'ada', upload, 2, last);
    expect(put.statusCode).toBe(200);
    const etag = put.json<{ etag: string }>().etag;
    const state = (await stateOf('ada', upload.uploadId)).json<MultipartUploadState>();
    expect(state.heldParts).toEqual([{ partNumber: 2, size: 128, etag }]);

    // A part sent again replaces the one held.
    const again = await putPart(t, 'ada', upload, 2, randomBytes(128));
    const newEtag = again.json<{ etag: string }>().etag;
    expect((await stateOf('ada', upload.uploadId)).json<MultipartUploadState>().heldParts).toEqual([
      { partNumber: 2, size: 128, etag: newEtag },
    ]);
  });

  it('answers a completed, aborted or direct upload, and unknown ids, with 404', async () => {
    const keyId = await createKey(t, 'bob');
    const missing = await stateOf('bob', 'no-such-upload');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'NOT_FOUND' });

    const done = await startMultipart(t, 'bob', { keyId, size: 100 });
    const etag = (await putPart(t, 'bob', done, 1, randomBytes(128))).json<{ etag: string }>().etag;
    expect((await stateOf('bob', done.uploadId)).json<MultipartUploadState>().heldParts).toHaveLength(1);
    expect((await completeMultipart(t, 'bob', done, [{ partNumber: 1, etag }])).statusCode).toBe(201);
    expect((await stateOf('bob', done.uploadId)).json()).toEqual(missing.json());

    const aborted = await startMultipart(t, 'bob', { keyId, size: 100 });
    await putPart(t, 'bob', aborted, 1, randomBytes(128));
    await t.as('bob', { method: 'DELETE', url: `/api/users/uploads/multipart/${aborted.uploadId}` });
    expect((await stateOf('bob', aborted.uploadId)).json()).toEqual(missing.json());

    const { file } = await uploadDirect(t, 'bob', { keyId, size: 10 });
    expect((await stateOf('bob', file.fileId)).json()).toEqual(missing.json());
  });

  it("answers another user's upload exactly like a missing one, and leaves it as it was", async () => {
    const keyId = await createKey(t, 'cal');
    const upload = await startMultipart(t, 'cal', { keyId, size: 100 });
    await putPart(t, 'cal', upload, 1, randomBytes(128));
    await createKey(t, 'eve');
    const foreign = await stateOf('eve', upload.uploadId);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual((await stateOf('eve', 'no-such-upload')).json());
    expect(foreign.body).not.toContain(upload.objectKey);
    expect((await stateOf('cal', upload.uploadId)).json<MultipartUploadState>().heldParts).toHaveLength(1);
  });

  it('forgets an upload idle for longer than UPLOAD_EXPIRY_HOURS, even before the sweeper ran', async () => {
    const keyId = await createKey(t, 'dee');
    const upload = await startMultipart(t, 'dee', { keyId, size: 100 });
    try {
      clock += 1.5 * HOUR;
      // A part keeps it alive: expiry counts from the last activity.
      expect((await putPart(t, 'dee', upload, 1, randomBytes(128))).statusCode).toBe(200);
      clock += 1.5 * HOUR;
      expect((await stateOf('dee', upload.uploadId)).statusCode).toBe(200);
      clock += 0.6 * HOUR;
      expect((await stateOf('dee', upload.uploadId)).statusCode).toBe(404);
    } finally {
      clock = Date.now();
    }
  });
});
