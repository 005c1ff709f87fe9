import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FileListItem, UploadsResponse } from '@coffer/contracts';
import {
  CHUNK_SIZE,
  DIRECT_UPLOAD_THRESHOLD,
  MAX_FILE_SIZE,
  MONTHLY_UPLOAD_LIMIT_SERVER_MESSAGE,
  encryptedSizeFor,
} from '@coffer/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../../infra/db/values.js';
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
  statsOf,
  uploadDirect,
  uploadMultipart,
} from '../files/files.test-helpers.js';
import { encryptionInfoFor } from '../../test/factories.js';
import { createFolder, nodeAt } from '../folders/folders.test-helpers.js';
import { createUploadSweeper } from './upload-sweeper.js';
import type { CurrentUser } from '../users/users.service.js';
import { createFilesRepo } from '../files/files.repo.js';
import type { UploadPolicy } from './upload-policy.js';
import { createUploadsRepo, type UploadsRepo } from './uploads.repo.js';
import { createUploadsService } from './uploads.service.js';

describe.each(dialectsUnderTest)('uploads ($name)', ({ open }) => {
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

  const uploadsOf = async (user: string) =>
    (await t.as(user, { method: 'GET', url: '/api/users/uploads' })).json<UploadsResponse>().uploads;
  const filesOf = async (user: string) =>
    (await t.as(user, { method: 'GET', url: '/api/users/files' })).json<{
      files: FileListItem[];
      count: number;
    }>();
  const download = (user: string, fileId: string) =>
    t.as(user, { method: 'GET', url: `/api/users/files/${fileId}/download` });

  describe('direct', () => {
    it('stores the ciphertext and gives back exactly the same bytes', async () => {
      const keyId = await createKey(t, 'ada');
      const { file, ciphertext } = await uploadDirect(t, 'ada', {
        keyId,
        size: 1000,
        name: 'Q3 report (final).pdf',
      });
      expect(file).toMatchObject({
        name: 'Q3 report (final).pdf',
        contentType: 'application/pdf',
        size: 1000,
        isEncrypted: true,
      });
      expect(ciphertext).toHaveLength(1028);

      const res = await download('ada', file.fileId);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(Buffer.from(ciphertext))).toBe(true);
      expect(await filesOf('ada')).toEqual({ files: [file], count: 1 });
      expect(await uploadsOf('ada')).toMatchObject([
        { uploadId: file.fileId, status: 'complete', parts: 1, completedParts: 1, size: 1000 },
      ]);
      const stats = await statsOf(t, 'ada');
      expect(stats.storage.used).toBe(1028);
      expect(stats.transfers.uploads.count).toBe(1);
    });

    it('stores an empty file as one empty chunk', async () => {
      const keyId = await createKey(t, 'abe');
      const { file } = await uploadDirect(t, 'abe', { keyId, size: 0 });
      const res = await download('abe', file.fileId);
      expect(res.rawPayload).toHaveLength(28);
    });

    it('refuses a file part of the wrong length and keeps nothing', async () => {
      const keyId = await createKey(t, 'bea');
      const before = await statsOf(t, 'bea');
      for (const length of [1027, 1029, 0]) {
        const form = directUploadForm({ keyId, size: 1000, ciphertext: randomBytes(length) });
        const res = await t.as('bea', { method: 'POST', url: '/api/users/uploads/direct', ...form });
        expect(res.statusCode, `${length} bytes`).toBe(400);
        expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      }
      expect(await filesOf('bea')).toEqual({ files: [], count: 0 });
      const uploads = await uploadsOf('bea');
      expect(uploads.map((u) => u.status)).toEqual(['failed', 'failed', 'failed']);
      for (const upload of uploads) expect(await t.blobStore.stat(upload.objectKey)).toBeNull();
      expect(await statsOf(t, 'bea')).toEqual(before);
    });

    it('refuses a form whose file part comes before the fields', async () => {
      const keyId = await createKey(t, 'cal');
      const form = directUploadForm({ keyId, size: 10, fileFirst: true });
      const res = await t.as('cal', { method: 'POST', url: '/api/users/uploads/direct', ...form });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toContain('before the file');
      expect(await filesOf('cal')).toEqual({ files: [], count: 0 });
      expect(await uploadsOf('cal')).toEqual([]);
    });

    it('refuses bad metadata with a 400 and stores nothing', async () => {
      const keyId = await createKey(t, 'dan');
      const otherKey = await createKey(t, 'dot');
      const cases: Record<string, string>[] = [
        { size: '-1' },
        { size: '1e3' },
        { size: '10.5' },
        { size: String(DIRECT_UPLOAD_THRESHOLD + 1) },
        { size: '99999999999999999999' },
        { name: '../../etc/passwd' },
        { name: 'a/b.txt' },
        { name: 'a\\b.txt' },
        { name: '..' },
        { name: '' },
        { name: 'x'.repeat(256) },
        { contentType: 'not a type' },
        { isEncrypted: 'false' },
        { encryptionInfo: 'not json' },
        { encryptionInfo: JSON.stringify({ ...encryptionInfoFor(keyId), chunkSize: 1024 }) },
        { encryptionInfo: JSON.stringify(encryptionInfoFor('no-such-key')) },
        // Someone else's key is not the caller's.
        { encryptionInfo: JSON.stringify(encryptionInfoFor(otherKey)) },
        { extra: 'field' },
      ];
      for (const fields of cases) {
        const form = directUploadForm({ keyId, size: 10, fields });
        const res = await t.as('dan', { method: 'POST', url: '/api/users/uploads/direct', ...form });
        expect(res.statusCode, JSON.stringify(fields).slice(0, 80)).toBe(400);
      }
      const notAForm = await t.as('dan', { method: 'POST', url: '/api/users/uploads/direct', payload: {} });
      expect(notAForm.statusCode).toBe(415);
      expect(await filesOf('dan')).toEqual({ files: [], count: 0 });
      expect(await uploadsOf('dan')).toEqual([]);
    });
  });

  describe("the spec's encryptionInfo (version, algorithm, iv, encryptedFileKey only)", () => {
    const specShape = (keyId: string) => {
      const info: Record<string, unknown> = { ...encryptionInfoFor(keyId) };
      delete info.format;
      delete info.chunkSize;
      return info;
    };
    const stored = async (user: string, fileId: string) =>
      (await t.as(user, { method: 'GET', url: `/api/users/files/${fileId}` })).json<{
        encryptionInfo: Record<string, unknown>;
      }>().encryptionInfo;

    it('is accepted by the direct upload and stored as coffer-v1 with its chunk size', async () => {
      const keyId = await createKey(t, 'spec-direct');
      const info = specShape(keyId);
      const { file } = await uploadDirect(t, 'spec-direct', {
        keyId,
        size: 100,
        fields: { encryptionInfo: JSON.stringify(info) },
      });
      expect(await stored('spec-direct', file.fileId)).toEqual({
        ...info,
        format: 'coffer-v1',
        chunkSize: CHUNK_SIZE,
      });
      expect((await filesOf('spec-direct')).count).toBe(1);
    });

    it('is accepted by the multipart upload and stored as coffer-v1 with its chunk size', async () => {
      const keyId = await createKey(t, 'spec-multi');
      const info = specShape(keyId);
      const res = await t.as('spec-multi', {
        method: 'POST',
        url: '/api/users/uploads/multipart',
        payload: {
          name: 'spec.bin',
          contentType: 'application/octet-stream',
          size: 100,
          parts: 1,
          isEncrypted: true,
          encryptionInfo: info,
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      const upload = res.json<{ uploadId: string; objectKey: string }>();
      const part = await putPart(t, 'spec-multi', upload, 1, randomBytes(encryptedSizeFor(100)));
      expect(part.statusCode, part.body).toBe(200);
      const done = await completeMultipart(t, 'spec-multi', upload, [
        { partNumber: 1, etag: part.json<{ etag: string }>().etag },
      ]);
      expect(done.statusCode, done.body).toBe(201);
      expect(await stored('spec-multi', done.json<FileListItem>().fileId)).toEqual({
        ...info,
        format: 'coffer-v1',
        chunkSize: CHUNK_SIZE,
      });
    });

    it('still refuses any other format or chunk size', async () => {
      const keyId = await createKey(t, 'spec-other');
      for (const odd of [{ format: 'coffer-v2' }, { chunkSize: 1024 }]) {
        const res = await t.as('spec-other', {
          method: 'POST',
          url: '/api/users/uploads/multipart',
          payload: {
            name: 'spec.bin',
            contentType: 'application/octet-stream',
            size: 100,
            parts: 1,
            isEncrypted: true,
            encryptionInfo: { ...specShape(keyId), ...odd },
          },
        });
        expect(res.statusCode, JSON.stringify(odd)).toBe(400);
      }
    });
  });

  describe('multipart', () => {
    it('uploads, replaces a re-sent part, completes and downloads the last bytes sent', async () => {
      const keyId = await createKey(t, 'eve');
      const upload = await startMultipart(t, 'eve', { keyId, size: 1024 });
      expect(upload.objectKey).toMatch(/^u\/[0-9a-f-]+\/[0-9a-f-]+$/);
      expect(upload.objectKey.endsWith(`/${upload.uploadId}`)).toBe(true);

      const first = randomBytes(1052);
      const second = randomBytes(1052);
      const put1 = await putPart(t, 'eve', upload, 1, first);
      expect(put1.statusCode).toBe(200);
      const put2 = await putPart(t, 'eve', upload, 1, second);
      const etag1 = put1.json<{ etag: string }>().etag;
      const etag2 = put2.json<{ etag: string }>().etag;
      expect(etag2).not.toBe(etag1);
      expect(await uploadsOf('eve')).toMatchObject([{ status: 'pending', parts: 1, completedParts: 1 }]);

      const stale = await completeMultipart(t, 'eve', upload, [{ partNumber: 1, etag: etag1 }]);
      expect(stale.statusCode).toBe(400);
      expect(await uploadsOf('eve')).toMatchObject([{ status: 'pending' }]);

      const done = await completeMultipart(t, 'eve', upload, [{ partNumber: 1, etag: etag2 }]);
      expect(done.statusCode).toBe(201);
      const file = done.json<FileListItem>();
      expect(file).toMatchObject({
        fileId: upload.uploadId,
        name: 'movie.mp4',
        size: 1024,
        isEncrypted: true,
      });
      expect((await download('eve', file.fileId)).rawPayload.equals(second)).toBe(true);
      expect(await uploadsOf('eve')).toMatchObject([{ status: 'complete', completedParts: 1 }]);

      // A retried completion (its answer lost) answers the same file; nothing is counted twice.
      const again = await completeMultipart(t, 'eve', upload, [{ partNumber: 1, etag: etag2 }]);
      expect(again.statusCode).toBe(201);
      expect(again.json()).toEqual(file);
      const stats = await statsOf(t, 'eve');
      expect(stats.transfers.uploads.count).toBe(1);
      expect(stats.storage.used).toBe(1052);
    });

    it('lists an unfinished upload with its node, so another browser can open its sealed name', async () => {
      const keyId = await createKey(t, 'nia');
      const folder = await createFolder(t, 'nia', null);
      const node = nodeAt(folder.nodeId);
      const started = await t.as('nia', {
        method: 'POST',
        url: '/api/users/uploads/multipart',
        payload: {
          name: 'encrypted',
          contentType: 'application/octet-stream',
          size: 1024,
          parts: 1,
          isEncrypted: true,
          encryptionInfo: encryptionInfoFor(keyId),
          node,
        },
      });
      expect(started.statusCode, started.body).toBe(201);
      // One without a node (as before encrypted names): a direct upload, the plan allows one multipart.
      const { file: plain } = await uploadDirect(t, 'nia', { keyId, size: 10 });
      const [withNode, without] = [started.json<{ uploadId: string }>().uploadId, plain.fileId];
      const listed = await uploadsOf('nia');
      expect(listed.find((u) => u.uploadId === withNode)).toMatchObject({
        status: 'pending',
        fileName: 'encrypted',
        ...node,
      });
      expect(Object.keys(listed.find((u) => u.uploadId === without) ?? {})).not.toContain('nodeId');
    });

    it('completes once when the same completion arrives twice at the same time', async () => {
      const keyId = await createKey(t, 'ewa');
      const upload = await startMultipart(t, 'ewa', { keyId, size: 500 });
      const part = randomBytes(528);
      const etag = (await putPart(t, 'ewa', upload, 1, part)).json<{ etag: string }>().etag;
      const [a, b] = await Promise.all([
        completeMultipart(t, 'ewa', upload, [{ partNumber: 1, etag }]),
        completeMultipart(t, 'ewa', upload, [{ partNumber: 1, etag }]),
      ]);
      const answers = [a, b].filter((res) => res.statusCode === 201);
      // Whichever lost the race either answers the same file or asks to retry; the file is whole.
      expect(answers.length).toBeGreaterThanOrEqual(1);
      for (const res of answers) expect(res.json<FileListItem>().fileId).toBe(upload.uploadId);
      for (const res of [a, b].filter((r) => r.statusCode !== 201)) {
        expect(res.json()).toMatchObject({ code: 'UPLOAD_FAILED' });
      }
      // A retry of the loser answers the file.
      expect((await completeMultipart(t, 'ewa', upload, [{ partNumber: 1, etag }])).statusCode).toBe(201);
      expect((await download('ewa', upload.uploadId)).rawPayload.equals(part)).toBe(true);
      const stats = await statsOf(t, 'ewa');
      expect(stats.storage.used).toBe(528);
      expect(stats.transfers.uploads.count).toBe(1);
    });

    /**
     * A completion of `name`'s one-part upload that has read the upload (pending) when `meanwhile`
     * runs, before it reads the upload's parts: the race of two requests, made deterministic.
     */
    async function completionInterrupted(
      name: string,
      meanwhile: (upload: Awaited<ReturnType<typeof startMultipart>>, etag: string) => Promise<void>,
    ) {
      const keyId = await createKey(t, name);
      const upload = await startMultipart(t, name, { keyId, size: 500 });
      const etag = (await putPart(t, name, upload, 1, randomBytes(528))).json<{ etag: string }>().etag;
      const userId = (await uploadsOf(name))[0]?.userId ?? '';
      const real = createUploadsRepo(database.db);
      const repo: UploadsRepo = {
        ...real,
        async partsOf(id) {
          await meanwhile(upload, etag);
          return real.partsOf(id);
        },
      };
      const service = createUploadsService({
        repo,
        files: createFilesRepo(database.db),
        // A completion starts nothing.
        policy: { reserve: () => Promise.reject(new Error('not used')) } satisfies UploadPolicy,
        blobStore: t.blobStore,
        logger: { warn: () => undefined },
        now: () => new Date(),
      });
      // Only the caller's id is read by a completion.
      const user = { id: userId } as CurrentUser;
      return service.completeMultipart(user, upload.uploadId, {
        uploadId: upload.uploadId,
        objectKey: upload.objectKey,
        parts: [{ partNumber: 1, etag }],
      });
    }

    it('answers the file when a concurrent completion finishes between reading the upload and its parts', async () => {
      let first: FileListItem | undefined;
      const second = await completionInterrupted('ewan', async (upload, etag) => {
        const done = await completeMultipart(t, 'ewan', upload, [{ partNumber: 1, etag }]);
        expect(done.statusCode).toBe(201);
        first = done.json<FileListItem>();
      });
      expect(first).toBeDefined();
      expect(second).toEqual(first);
      expect((await statsOf(t, 'ewan')).transfers.uploads.count).toBe(1);
    });

    it('says the upload is aborted when an abort lands between reading the upload and its parts', async () => {
      const completing = completionInterrupted('abby', async (upload) => {
        const aborted = await t.as('abby', {
          method: 'DELETE',
          url: `/api/users/uploads/multipart/${upload.uploadId}`,
        });
        expect(aborted.json()).toEqual({ ok: true });
      });
      await expect(completing).rejects.toMatchObject({
        statusCode: 400,
        code: 'INVALID_OPERATION',
        message: 'This upload is aborted: it cannot take parts or be completed',
      });
      expect(await uploadsOf('abby')).toMatchObject([{ status: 'aborted' }]);
      expect((await filesOf('abby')).count).toBe(0);
    });

    it('keeps the upload pending when a part is missing or the list is wrong', async () => {
      const keyId = await createKey(t, 'fay');
      const upload = await startMultipart(t, 'fay', { keyId, size: 100 });
      const none = await completeMultipart(t, 'fay', upload, [{ partNumber: 1, etag: 'abc' }]);
      expect(none.statusCode).toBe(400);
      const etag = (await putPart(t, 'fay', upload, 1, randomBytes(128))).json<{ etag: string }>().etag;
      for (const parts of [
        [],
        [{ partNumber: 2, etag }],
        [
          { partNumber: 1, etag },
          { partNumber: 1, etag },
        ],
        [{ partNumber: 1, etag: 'W/"wrong"' }],
      ]) {
        const res = await completeMultipart(t, 'fay', upload, parts);
        expect(res.statusCode, JSON.stringify(parts)).toBe(400);
      }
      const mismatched = await t.as('fay', {
        method: 'POST',
        url: `/api/users/uploads/multipart/${upload.uploadId}/complete`,
        payload: { uploadId: 'other', objectKey: upload.objectKey, parts: [{ partNumber: 1, etag }] },
      });
      expect(mismatched.statusCode).toBe(400);
      expect(await uploadsOf('fay')).toMatchObject([{ status: 'pending', completedParts: 1 }]);
      expect(await filesOf('fay')).toEqual({ files: [], count: 0 });
      // The client can still finish it.
      expect((await completeMultipart(t, 'fay', upload, [{ partNumber: 1, etag }])).statusCode).toBe(201);
    });

    it('refuses part numbers out of range, wrong lengths and other bodies', async () => {
      const keyId = await createKey(t, 'gus');
      const upload = await startMultipart(t, 'gus', { keyId, size: 100 });
      const url = (n: string) =>
        `/api/users/uploads/multipart/${upload.uploadId}/part/${n}?objectKey=${encodeURIComponent(upload.objectKey)}`;
      for (const n of ['2', '0', '-1', '10001', 'x']) {
        const res = await t.as('gus', {
          method: 'PUT',
          url: url(n),
          payload: randomBytes(128),
          headers: { 'content-type': 'application/octet-stream' },
        });
        expect(res.statusCode, n).toBe(400);
      }
      for (const length of [127, 129, 0, 2000]) {
        const res = await putPart(t, 'gus', upload, 1, randomBytes(length));
        expect(res.statusCode, `${length} bytes`).toBe(400);
        expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      }
      // A body longer than its Content-Length claims cannot exist; a chunked body is counted as it streams.
      const chunked = await t.as('gus', {
        method: 'PUT',
        url: url('1'),
        payload: Readable.from([randomBytes(100), randomBytes(100)]),
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(chunked.statusCode).toBe(400);
      const json = await t.as('gus', { method: 'PUT', url: url('1'), payload: { a: 1 } });
      expect(json.statusCode).toBe(415);
      expect(await uploadsOf('gus')).toMatchObject([{ status: 'pending', completedParts: 0 }]);
      const ok = await t.as('gus', {
        method: 'PUT',
        url: url('1'),
        payload: Readable.from([randomBytes(100), randomBytes(28)]),
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(ok.statusCode).toBe(200);
    });

    it("answers a wrong objectKey or another user's upload exactly like a missing upload", async () => {
      const keyId = await createKey(t, 'hal');
      const upload = await startMultipart(t, 'hal', { keyId, size: 100 });
      const part = randomBytes(128);
      const missing = await putPart(t, 'hal', { ...upload, uploadId: 'no-such-upload' }, 1, part);
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ code: 'NOT_FOUND' });
      const wrongKey = await putPart(t, 'hal', { ...upload, objectKey: `${upload.objectKey}x` }, 1, part);
      expect(wrongKey.json()).toEqual(missing.json());
      const foreignKey = await putPart(
        t,
        'hal',
        { ...upload, objectKey: upload.objectKey.replace(/^u\/[^/]+/, 'u/someone-else') },
        1,
        part,
      );
      expect(foreignKey.json()).toEqual(missing.json());

      await createKey(t, 'ivy');
      for (const res of [
        await putPart(t, 'ivy', upload, 1, part),
        await completeMultipart(t, 'ivy', upload, [{ partNumber: 1, etag: 'x' }]),
        await t.as('ivy', { method: 'DELETE', url: `/api/users/uploads/multipart/${upload.uploadId}` }),
      ]) {
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual(missing.json());
      }
      expect(await uploadsOf('ivy')).toEqual([]);
      expect(await uploadsOf('hal')).toMatchObject([{ status: 'pending', completedParts: 0 }]);
    });

    it('aborts: the upload takes no more parts, cannot complete, and aborting again is fine', async () => {
      const keyId = await createKey(t, 'jon');
      const upload = await startMultipart(t, 'jon', { keyId, size: 100 });
      const etag = (await putPart(t, 'jon', upload, 1, randomBytes(128))).json<{ etag: string }>().etag;
      const abort = () =>
        t.as('jon', { method: 'DELETE', url: `/api/users/uploads/multipart/${upload.uploadId}` });
      expect((await abort()).json()).toEqual({ ok: true });
      expect((await abort()).statusCode).toBe(200);
      const complete = await completeMultipart(t, 'jon', upload, [{ partNumber: 1, etag }]);
      expect(complete.statusCode).toBe(400);
      expect(complete.json()).toMatchObject({ code: 'INVALID_OPERATION' });
      expect((await putPart(t, 'jon', upload, 1, randomBytes(128))).statusCode).toBe(400);
      expect(await uploadsOf('jon')).toMatchObject([{ status: 'aborted', completedParts: 0 }]);
      expect(await filesOf('jon')).toEqual({ files: [], count: 0 });
      expect(await t.blobStore.stat(upload.objectKey)).toBeNull();

      const done = await uploadMultipart(t, 'jon', { keyId, size: 10 });
      const late = await t.as('jon', {
        method: 'DELETE',
        url: `/api/users/uploads/multipart/${done.upload.uploadId}`,
      });
      expect(late.statusCode).toBe(400);
      expect((await download('jon', done.file.fileId)).statusCode).toBe(200);
    });

    it('refuses bad declarations with a 400', async () => {
      const keyId = await createKey(t, 'kai');
      const good = {
        name: 'a.bin',
        contentType: 'application/octet-stream',
        size: 100,
        parts: 1,
        isEncrypted: true,
        encryptionInfo: encryptionInfoFor(keyId),
      };
      const cases: object[] = [
        { ...good, size: -1 },
        { ...good, size: MAX_FILE_SIZE + 1, parts: 10000 },
        { ...good, size: 1e300 },
        { ...good, size: 1.5 },
        { ...good, parts: 2 },
        { ...good, size: CHUNK_SIZE + 1, parts: 1 },
        { ...good, parts: 0 },
        { ...good, name: '../x' },
        { ...good, name: 'dir/x' },
        { ...good, name: '.' },
        { ...good, isEncrypted: false },
        { ...good, encryptionInfo: { ...good.encryptionInfo, version: 'not-mine' } },
        { ...good, encryptionInfo: { ...good.encryptionInfo, iv: 'AAAA' } },
        { ...good, extra: 1 },
      ];
      for (const payload of cases) {
        const res = await t.as('kai', { method: 'POST', url: '/api/users/uploads/multipart', payload });
        expect(res.statusCode, JSON.stringify(payload).slice(0, 120)).toBe(400);
      }
      expect(await uploadsOf('kai')).toEqual([]);
      // Sizes above the direct threshold are multipart only.
      const big = directUploadForm({
        keyId,
        size: DIRECT_UPLOAD_THRESHOLD + 1,
        ciphertext: randomBytes(10),
      });
      const direct = await t.as('kai', { method: 'POST', url: '/api/users/uploads/direct', ...big });
      expect(direct.statusCode).toBe(400);
    });

    it('limits the uploads in progress to the plan’s maxConcurrentUploads', async () => {
      const keyId = await createKey(t, 'lea');
      const first = await startMultipart(t, 'lea', { keyId, size: 10 });
      const second = await t.as('lea', {
        method: 'POST',
        url: '/api/users/uploads/multipart',
        payload: {
          name: 'b.bin',
          contentType: 'application/octet-stream',
          size: 10,
          parts: 1,
          isEncrypted: true,
          encryptionInfo: encryptionInfoFor(keyId),
        },
      });
      expect(second.statusCode).toBe(429);
      expect(second.json()).toEqual({ code: 'UPLOAD_FAILED', message: 'Too many uploads in progress' });
      // Direct uploads do not queue.
      await uploadDirect(t, 'lea', { keyId, size: 10 });
      await t.as('lea', { method: 'DELETE', url: `/api/users/uploads/multipart/${first.uploadId}` });
      await startMultipart(t, 'lea', { keyId, size: 10 });
    });

    it('aborts stale uploads in the sweep, and removes what they stored', async () => {
      const keyId = await createKey(t, 'max');
      const upload = await startMultipart(t, 'max', { keyId, size: 100 });
      await putPart(t, 'max', upload, 1, randomBytes(128));
      // A direct upload whose server stopped after storing the blob.
      const { ciphertext } = directUploadForm({ keyId, size: 10 });
      const userId = (await uploadsOf('max'))[0]?.userId ?? '';
      const orphanKey = `u/${userId}/orphan-${Date.now()}`;
      await database.db
        .insertInto('uploads')
        .values({
          id: `orphan-${Date.now()}`,
          user_id: userId,
          file_name: 'x.bin',
          content_type: 'application/octet-stream',
          size: 10,
          stored_size: 38,
          is_encrypted: 1,
          encryption_info: JSON.stringify(encryptionInfoFor(keyId)),
          object_key: orphanKey,
          storage_upload_id: null,
          kind: 'direct',
          status: 'pending',
          parts: 1,
          file_id: null,
          created_at: nowIso(),
          updated_at: nowIso(),
        })
        .execute();
      await t.blobStore.put(orphanKey, Readable.from([ciphertext]), { size: ciphertext.length });

      const sweeperAt = (hours: number) =>
        createUploadSweeper({
          repo: createUploadsRepo(database.db),
          blobStore: t.blobStore,
          expiryHours: 24,
          // Idle direct uploads are another test's subject: this one is about expiry.
          idleMinutes: 24 * 60,
          logger: { info: () => undefined, warn: () => undefined },
          now: () => new Date(Date.now() + hours * 3600 * 1000),
        });
      expect(await sweeperAt(23).sweep()).toBe(0);
      const swept = await sweeperAt(25).sweep();
      expect(swept).toBeGreaterThanOrEqual(2);
      expect((await uploadsOf('max')).map((u) => u.status)).toEqual(['aborted', 'aborted']);
      expect(await t.blobStore.stat(orphanKey)).toBeNull();
      expect((await putPart(t, 'max', upload, 1, randomBytes(128))).statusCode).toBe(400);
      // The slot is free again.
      await startMultipart(t, 'max', { keyId, size: 10 });
    });

    it('aborts a direct upload idle for UPLOAD_IDLE_MINUTES (its request died), not a multipart one', async () => {
      const keyId = await createKey(t, 'ida');
      const upload = await startMultipart(t, 'ida', { keyId, size: 100 });
      const userId = (await uploadsOf('ida'))[0]?.userId ?? '';
      // A direct upload whose server was killed while the body streamed in: pending, no object.
      const deadId = `dead-${Date.now()}`;
      await database.db
        .insertInto('uploads')
        .values({
          id: deadId,
          user_id: userId,
          file_name: 'x.bin',
          content_type: 'application/octet-stream',
          size: 10,
          stored_size: 38,
          is_encrypted: 1,
          encryption_info: JSON.stringify(encryptionInfoFor(keyId)),
          object_key: `u/${userId}/${deadId}`,
          storage_upload_id: null,
          kind: 'direct',
          status: 'pending',
          parts: 1,
          file_id: null,
          created_at: nowIso(),
          updated_at: nowIso(),
        })
        .execute();
      const sweeperAt = (minutes: number) =>
        createUploadSweeper({
          repo: createUploadsRepo(database.db),
          blobStore: t.blobStore,
          expiryHours: 24,
          idleMinutes: 10,
          logger: { info: () => undefined, warn: () => undefined },
          now: () => new Date(Date.now() + minutes * 60 * 1000),
        });
      expect(await sweeperAt(9).sweep()).toBe(0);
      expect(await sweeperAt(11).sweep()).toBeGreaterThanOrEqual(1);
      const statuses = new Map((await uploadsOf('ida')).map((u) => [u.uploadId, u.status]));
      expect(statuses.get(deadId)).toBe('aborted');
      expect(statuses.get(upload.uploadId)).toBe('pending');
    });

    it('streams a real two-part file: part 1 is a whole encrypted chunk', async () => {
      const keyId = await createKey(t, 'ned');
      const size = CHUNK_SIZE + 10;
      const upload = await startMultipart(t, 'ned', { keyId, size });
      const block = randomBytes(1024 * 1024);
      const part1Size = CHUNK_SIZE + 28;
      function* part1(): Generator<Buffer> {
        for (let sent = 0; sent < part1Size; sent += block.length) {
          yield block.subarray(0, Math.min(block.length, part1Size - sent));
        }
      }
      const expected = createHash('sha256');
      for (const piece of part1()) expected.update(piece);
      const part2 = randomBytes(38);
      expected.update(part2);

      const res1 = await t.as('ned', {
        method: 'PUT',
        url: `/api/users/uploads/multipart/${upload.uploadId}/part/1?objectKey=${encodeURIComponent(upload.objectKey)}`,
        payload: Readable.from(part1()),
        headers: { 'content-type': 'application/octet-stream', 'content-length': String(part1Size) },
      });
      expect(res1.statusCode, res1.body).toBe(200);
      const res2 = await putPart(t, 'ned', upload, 2, part2);
      expect(res2.statusCode).toBe(200);
      const done = await completeMultipart(t, 'ned', upload, [
        { partNumber: 1, etag: res1.json<{ etag: string }>().etag },
        { partNumber: 2, etag: res2.json<{ etag: string }>().etag },
      ]);
      expect(done.statusCode).toBe(201);
      expect(await t.blobStore.stat(upload.objectKey)).toEqual({ size: encryptedSizeFor(size) });

      const stored = await t.blobStore.get(upload.objectKey);
      const actual = createHash('sha256');
      for await (const piece of stored.body) actual.update(piece);
      expect(actual.digest('hex')).toBe(expected.digest('hex'));
      const tail = await t.as('ned', {
        method: 'GET',
        url: `/api/users/files/${upload.uploadId}/download`,
        headers: { range: 'bytes=-38' },
      });
      expect(tail.statusCode).toBe(206);
      expect(tail.rawPayload.equals(part2)).toBe(true);
    }, 60_000);
  });

  describe('plan limits', () => {
    let limited: TestApp;
    beforeAll(async () => {
      limited = await startTestApp({
        database,
        // 0.000002 GB is 2147 bytes: room for two 1000-byte files (1028 bytes stored each), not three.
        env: { PLAN_LIMITS_FREE: JSON.stringify({ storageLimit: 0.000002, monthlyUploadLimit: 3 }) },
      });
    });
    afterAll(() => limited.close());

    it('refuses uploads beyond the storage quota, counting uploads in progress', async () => {
      const keyId = await createKey(limited, 'ola');
      await uploadDirect(limited, 'ola', { keyId, size: 1000 });
      const pending = await startMultipart(limited, 'ola', { keyId, size: 1000 });
      const form = directUploadForm({ keyId, size: 1000 });
      const res = await limited.as('ola', { method: 'POST', url: '/api/users/uploads/direct', ...form });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ code: 'QUOTA_EXCEEDED', message: 'Storage quota exceeded' });
      await limited.as('ola', { method: 'DELETE', url: `/api/users/uploads/multipart/${pending.uploadId}` });
      await uploadDirect(limited, 'ola', { keyId, size: 1000 });
      const stats = await statsOf(limited, 'ola');
      expect(stats.storage.used).toBe(2056);
    });

    it('refuses uploads beyond the monthly upload count', async () => {
      const keyId = await createKey(limited, 'pia');
      for (let i = 0; i < 3; i += 1) await uploadDirect(limited, 'pia', { keyId, size: 1 });
      const form = directUploadForm({ keyId, size: 1 });
      const direct = await limited.as('pia', { method: 'POST', url: '/api/users/uploads/direct', ...form });
      expect(direct.statusCode).toBe(403);
      expect(direct.json()).toEqual({ code: 'UPLOAD_FAILED', message: MONTHLY_UPLOAD_LIMIT_SERVER_MESSAGE });
      const multipart = await limited.as('pia', {
        method: 'POST',
        url: '/api/users/uploads/multipart',
        payload: {
          name: 'a.bin',
          contentType: 'application/octet-stream',
          size: 1,
          parts: 1,
          isEncrypted: true,
          encryptionInfo: encryptionInfoFor(keyId),
        },
      });
      expect(multipart.statusCode).toBe(403);
      expect(multipart.json()).toEqual({ code: 'UPLOAD_FAILED', message: 'Monthly upload limit reached' });
      expect((await statsOf(limited, 'pia')).transfers.uploads.count).toBe(3);
    });
  });
});
