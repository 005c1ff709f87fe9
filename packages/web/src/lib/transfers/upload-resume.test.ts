import { type NewEncryptionInfo } from '@coffer/contracts';
import {
  bytesToHex,
  chunkCount,
  decryptChunk,
  generateFileKey,
  sha256,
  sha256PieceList,
  unwrapFileKey,
  wrapFileKey,
} from '@coffer/crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { FakeCofferServer, concat, patternBytes } from './testing/fake-coffer-server';
import { ownerKeyPair } from './testing/keys';
import { testRunOptions, usePartPath, type PartPath } from './testing/part-path';
import { TransferAbortedError, TransferError } from './transfer-errors';
import { uploadFile } from './upload';
import { createMemoryUploadLocks, UPLOAD_RUNNING_ELSEWHERE_TEXT, type UploadLocks } from './upload-locks';
import { createMemoryUploadRecords, type UploadRecord, type UploadRecordStore } from './upload-records';
import {
  differentFileText,
  resumeUpload,
  UPLOAD_GONE_TEXT,
  UPLOAD_KEY_CHANGED_TEXT,
  UPLOAD_RECORD_INCOMPLETE_TEXT,
} from './upload-resume';

/** Small sizes so multipart runs on kilobytes (tests only): 5 parts of 1024 bytes and one of 100. */
const testFormat = { chunkSize: 1024, directUploadThreshold: 4096 };
const SIZE = 5 * 1024 + 100;
const LAST_MODIFIED = 1_700_000_000_000;
/** A ceiling for a state awaited, never the expected time. */
const WAIT = { timeout: 10_000, interval: 5 };

let keys: CryptoKeyPair;
beforeAll(async () => {
  keys = await ownerKeyPair();
});

function fileOf(content: Uint8Array<ArrayBuffer>, lastModified = LAST_MODIFIED): File {
  return new File([content], 'film.mov', { type: 'video/quicktime', lastModified });
}

/** A new upload of `content` to `server`, recorded in `records`. */
function newUpload(
  server: FakeCofferServer,
  records: UploadRecordStore,
  content: Uint8Array<ArrayBuffer>,
  signal = new AbortController().signal,
  // Its own tab's locks by default: a tab that dies takes its Web Locks with it.
  locks: UploadLocks = createMemoryUploadLocks(),
) {
  return uploadFile({
    ...testRunOptions(server, testFormat),
    file: fileOf(content),
    keys: { publicKey: keys.publicKey, keyVersion: 'key-1' },
    signal,
    records,
    locks,
  });
}

/** Uploads `content` until part `stopAt` is asked for, which never arrives (the tab closed). */
async function interruptedUpload(
  server: FakeCofferServer,
  records: UploadRecordStore,
  content: Uint8Array<ArrayBuffer>,
  stopAt = 3,
  locks?: UploadLocks,
) {
  const controller = new AbortController();
  let reached: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    reached = resolve;
  });
  server.partBehaviour = (partNumber) => {
    if (partNumber < stopAt) return 'ok';
    reached();
    return new Promise(() => undefined);
  };
  void newUpload(server, records, content, controller.signal, locks).catch(() => undefined);
  await stopped;
  // The page is gone: nothing more of this run is answered, and nothing aborts it on the server.
  server.partBehaviour = () => 'ok';
  const [record] = await records.all();
  if (record === undefined) throw new Error('no record');
  return record;
}

async function decryptStored(info: NewEncryptionInfo, ciphertext: Uint8Array, size: number) {
  const fileKey = await unwrapFileKey(info.encryptedFileKey, keys.privateKey);
  const count = chunkCount(size, testFormat.chunkSize);
  const pieces: Uint8Array[] = [];
  let offset = 0;
  for (let i = 0; i < count; i++) {
    const length = Math.min(testFormat.chunkSize, size - i * testFormat.chunkSize) + 28;
    pieces.push(
      await decryptChunk(fileKey, i, i === count - 1, ciphertext.subarray(offset, offset + length)),
    );
    offset += length;
  }
  return concat(pieces);
}

function resumeOptions(
  server: FakeCofferServer,
  records: UploadRecordStore,
  file: File,
  record: Awaited<ReturnType<typeof interruptedUpload>>,
) {
  return {
    ...testRunOptions(server, testFormat),
    file,
    record,
    records,
    privateKey: keys.privateKey,
    locks: createMemoryUploadLocks(),
  };
}

/** `record` as a browser of sessions before keyed identities wrote it: chunk hashes in `scheme`. */
async function olderRecord(
  record: UploadRecord,
  content: Uint8Array<ArrayBuffer>,
  scheme: 'sha256' | 'sha256-pieces',
): Promise<UploadRecord> {
  const chunkSha256: Record<number, string> = {};
  for (const index of Object.keys(record.chunkSha256).map(Number)) {
    const chunk = content.subarray(index * testFormat.chunkSize, (index + 1) * testFormat.chunkSize);
    chunkSha256[index] = bytesToHex(scheme === 'sha256' ? await sha256(chunk) : await sha256PieceList(chunk));
  }
  const older: { -readonly [K in keyof UploadRecord]: UploadRecord[K] } = { ...record, chunkSha256 };
  delete older.hashKey;
  delete older.hashScheme;
  return scheme === 'sha256' ? older : { ...older, hashScheme: scheme };
}

const partPuts = (server: FakeCofferServer) =>
  server.log.filter((line) => line.startsWith('PUT ')).map((line) => Number(/part\/(\d+)$/.exec(line)?.[1]));

/** Resumes `record` with `content` changed in its byte `at`: refused as another file, nothing sent. */
async function expectOtherFileRefused(
  server: FakeCofferServer,
  records: UploadRecordStore,
  record: UploadRecord,
  content: Uint8Array<ArrayBuffer>,
  at: number,
): Promise<void> {
  const other = content.slice();
  other[at] = (other[at] ?? 0) ^ 1;
  server.log.length = 0;
  const error = await resumeUpload(resumeOptions(server, records, fileOf(other), record)).catch(
    (e: unknown) => e,
  );
  expect((error as TransferError).code).toBe('DIFFERENT_FILE');
  expect(partPuts(server)).toEqual([]);
}

describe.each<PartPath>(['page', 'crypto worker'])(
  'resuming a multipart upload, parts sent from the %s',
  (path) => {
    usePartPath(path);

    it('refuses to resume while another tab of this browser still runs the upload (its Web Lock)', async () => {
      const server = new FakeCofferServer();
      const records = createMemoryUploadRecords();
      const content = patternBytes(SIZE, 9);
      const browserLocks = createMemoryUploadLocks();
      // The tab that started it is alive, waiting for part 3's answer: it holds the upload's lock.
      const record = await interruptedUpload(server, records, content, 3, browserLocks);
      const requestsBefore = server.log.length;
      const resuming = resumeUpload({
        ...resumeOptions(server, records, fileOf(content), record),
        locks: browserLocks,
      });
      await expect(resuming).rejects.toMatchObject({
        code: 'RUNNING_ELSEWHERE',
        message: UPLOAD_RUNNING_ELSEWHERE_TEXT,
      });
      expect(server.log.slice(requestsBefore)).toEqual([]);
      expect(await records.get(record.uploadId)).toBeDefined();
    });

    it('holds the lock while it resumes, and lets it go when it ends', async () => {
      const server = new FakeCofferServer();
      const records = createMemoryUploadRecords();
      const content = patternBytes(SIZE, 10);
      const record = await interruptedUpload(server, records, content);
      const browserLocks = createMemoryUploadLocks();
      const options = { ...resumeOptions(server, records, fileOf(content), record), locks: browserLocks };
      const first = resumeUpload(options);
      await expect(resumeUpload(options)).rejects.toMatchObject({ code: 'RUNNING_ELSEWHERE' });
      await first;
      const release = await browserLocks.tryHold(record.uploadId);
      expect(release).not.toBeNull();
    });

    it('records the upload and each encrypted chunk, then sends only the missing parts and completes', async () => {
      const server = new FakeCofferServer();
      const records = createMemoryUploadRecords();
      const content = patternBytes(SIZE, 3);
      const interrupted = await interruptedUpload(server, records, content);
      expect(interrupted).toMatchObject({
        fileName: 'film.mov',
        size: SIZE,
        lastModified: LAST_MODIFIED,
        chunkSize: 1024,
      });
      const hashed = (record: UploadRecord | undefined) =>
        Object.keys(record?.chunkSha256 ?? {})
          .map(Number)
          .sort();
      // Chunks 0 and 1 were sent and 2 is being sent: each was hashed before it was sent.
      expect(hashed(interrupted).slice(0, 3)).toEqual([0, 1, 2]);
      // Chunk 3 is encrypted while part 3 is sent; its hash is recorded when that encryption ends.
      let record = interrupted;
      await vi.waitFor(async () => {
        record = (await records.get(interrupted.uploadId)) ?? interrupted;
        expect(hashed(record)).toEqual([0, 1, 2, 3]);
      }, WAIT);
      const [upload] = [...server.multipart.values()];
      expect([...(upload?.parts.keys() ?? [])]).toEqual([1, 2]);

      server.log.length = 0;
      const stored = await resumeUpload(resumeOptions(server, records, fileOf(content), record));
      expect(partPuts(server)).toEqual([3, 4, 5, 6]);
      const file = server.files.get(stored.fileId);
      if (file === undefined || upload === undefined) throw new Error('not stored');
      expect(await decryptStored(upload.request.encryptionInfo, file.ciphertext, SIZE)).toEqual(content);
      expect(await records.all()).toEqual([]);
    });

    it('keeps the record of a new upload that failed while the server could not be told', async () => {
      const server = new FakeCofferServer();
      const records = createMemoryUploadRecords();
      server.partBehaviour = (partNumber) => (partNumber < 3 ? 'ok' : 'network-error');
      server.abortBehaviour = 'network-error';
      await expect(newUpload(server, records, patternBytes(SIZE, 5))).rejects.toBeInstanceOf(TransferError);
      // The server still holds parts 1 and 2: the record stays, so this browser can resume it.
      expect([...(server.multipart.values().next().value?.parts.keys() ?? [])]).toEqual([1, 2]);
      expect((await records.all()).map((record) => record.fileName)).toEqual(['film.mov']);

      const second = new FakeCofferServer();
      second.partBehaviour = (partNumber) => (partNumber < 3 ? 'ok' : 'network-error');
      const forgotten = createMemoryUploadRecords();
      await expect(newUpload(second, forgotten, patternBytes(SIZE, 5))).rejects.toBeInstanceOf(TransferError);
      // Aborted on the server: nothing is left to resume, and the record is gone.
      expect(await forgotten.all()).toEqual([]);
    });

    it('refuses a file of another date or size before asking the server', async () => {
      const server = new FakeCofferServer();
      const records = createMemoryUploadRecords();
      const content = patternBytes(SIZE, 4);
      const record = await interruptedUpload(server, records, content);
      server.log.length = 0;
      for (const file of [fileOf(content, LAST_MODIFIED + 1), fileOf(content.subarray(1))]) {
        const error = await resumeUpload(resumeOptions(server, records, file, record)).catch(
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(TransferError);
        expect((error as TransferError).message).toBe(differentFileText(record));
      }
      expect(server.log).toEqual([]);
    });

    it('refuses a file of the same size and date whose next chunk differs, and sends nothing of it', async () => {
      const server = new FakeCofferServer();
      const records = createMemoryUploadRecords();
      const content = patternBytes(SIZE, 5);
      const record = await interruptedUpload(server, records, content);
      // Only chunk 2 (the first missing one) differs.
      await expectOtherFileRefused(server, records, record, content, 2 * 1024 + 10);
      // Still pending and recorded: the right file resumes it.
      expect(server.multipart.size).toBe(1);
      expect(await records.get(record.uploadId)).toBeDefined();
      await resumeUpload(resumeOptions(server, records, fileOf(content), record));
      expect(server.files.size).toBe(1);
    });

    it('checks a held chunk when the first missing one was never hashed', async () => {
      const server = new FakeCofferServer();
      const records = createMemoryUploadRecords();
      const content = patternBytes(SIZE, 6);
      const full = await interruptedUpload(server, records, content);
      // As if the page died while chunk 2 was being read: only the sent chunks' hashes are known.
      const record = { ...full, chunkSha256: { 0: full.chunkSha256[0] ?? '', 1: full.chunkSha256[1] ?? '' } };
      await records.put(record);
      // Chunk 1, held by the server, differs: it is read and compared before anything is sent.
      await expectOtherFileRefused(server, records, record, content, 1024 + 1);
    });

    it('records keyed chunk identities under a non-extractable key of its own, never a plain SHA-256', async () => {
      const server = new FakeCofferServer();
      const records = createMemoryUploadRecords();
      const content = patternBytes(SIZE, 10);
      const record = await interruptedUpload(server, records, content);
      expect(record.hashScheme).toBe('gmac-pieces');
      expect(record.hashKey?.extractable).toBe(false);
      const first = content.subarray(0, testFormat.chunkSize);
      // Whoever reads the record alone cannot test a guess of the file's content against it.
      expect(record.chunkSha256[0]).toMatch(/^[0-9a-f]{64}$/);
      expect(record.chunkSha256[0]).not.toBe(bytesToHex(await sha256(first)));
      expect(record.chunkSha256[0]).not.toBe(bytesToHex(await sha256PieceList(first)));
      // Another upload of the same file has identities of its own.
      const again = await interruptedUpload(new FakeCofferServer(), createMemoryUploadRecords(), content);
      expect(again.chunkSha256[0]).not.toBe(record.chunkSha256[0]);
    });

    it.each(['sha256', 'sha256-pieces'] as const)(
      'resumes a record written with %s hashes, and still refuses another file with them',
      async (scheme) => {
        const server = new FakeCofferServer();
        const records = createMemoryUploadRecords();
        const content = patternBytes(SIZE, 11);
        const record = await olderRecord(await interruptedUpload(server, records, content), content, scheme);
        await records.put(record);
        await expectOtherFileRefused(server, records, record, content, 2 * 1024 + 5);
        const [upload] = [...server.multipart.values()];
        const stored = await resumeUpload(resumeOptions(server, records, fileOf(content), record));
        const file = server.files.get(stored.fileId);
        if (file === undefined || upload === undefined) throw new Error('not stored');
        expect(await decryptStored(upload.request.encryptionInfo, file.ciphertext, SIZE)).toEqual(content);
      },
    );

    it('refuses a record that cannot check the file (no usable key, an unknown scheme) before asking the server', async () => {
      const server = new FakeCofferServer();
      const records = createMemoryUploadRecords();
      const content = patternBytes(SIZE, 12);
      const record = await interruptedUpload(server, records, content);
      const readOnlyKey = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
        'decrypt',
      ]);
      const hmacKey = await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
      const keyless: { -readonly [K in keyof UploadRecord]: UploadRecord[K] } = { ...record };
      delete keyless.hashKey;
      const broken: UploadRecord[] = [
        keyless,
        { ...record, hashKey: readOnlyKey },
        { ...record, hashKey: hmacKey },
        { ...record, hashKey: {} as CryptoKey },
        { ...record, hashScheme: 'md5' as UploadRecord['hashScheme'] },
      ];
      server.log.length = 0;
      for (const variant of broken) {
        const error = await resumeUpload(resumeOptions(server, records, fileOf(content), variant)).catch(
          (e: unknown) => e,
        );
        expect((error as TransferError).code).toBe('NOT_RESUMABLE');
        expect((error as TransferError).message).toBe(UPLOAD_RECORD_INCOMPLETE_TEXT);
      }
      expect(server.log).toEqual([]);
      // The record as written still resumes.
      await resumeUpload(resumeOptions(server, records, fileOf(content), record));
      expect(server.files.size).toBe(1);
    });

    it('refuses a server that answers another wrapped file key (one it could know)', async () => {
      const server = new FakeCofferServer();
      const records = createMemoryUploadRecords();
      const content = patternBytes(SIZE, 7);
      const record = await interruptedUpload(server, records, content);
      const [entry] = [...server.multipart];
      if (entry === undefined) throw new Error('no upload');
      const [uploadId, upload] = entry;
      const swapped = await wrapFileKey(await generateFileKey(), keys.publicKey);
      server.multipart.set(uploadId, {
        ...upload,
        request: {
          ...upload.request,
          encryptionInfo: { ...upload.request.encryptionInfo, encryptedFileKey: swapped },
        },
      });
      server.log.length = 0;
      const error = await resumeUpload(resumeOptions(server, records, fileOf(content), record)).catch(
        (e: unknown) => e,
      );
      expect((error as TransferError).message).toBe(UPLOAD_KEY_CHANGED_TEXT);
      expect(partPuts(server)).toEqual([]);
    });

    it('forgets the record when the server no longer knows the upload', async () => {
      const server = new FakeCofferServer();
      const records = createMemoryUploadRecords();
      const content = patternBytes(SIZE, 8);
      const record = await interruptedUpload(server, records, content);
      server.multipart.clear();
      const error = await resumeUpload(resumeOptions(server, records, fileOf(content), record)).catch(
        (e: unknown) => e,
      );
      expect((error as TransferError).message).toBe(UPLOAD_GONE_TEXT);
      expect(await records.all()).toEqual([]);
    });

    it('aborts on the server and forgets the record when the resumed upload is cancelled', async () => {
      const server = new FakeCofferServer();
      const records = createMemoryUploadRecords();
      const content = patternBytes(SIZE, 9);
      const record = await interruptedUpload(server, records, content);
      const controller = new AbortController();
      server.partBehaviour = () => {
        controller.abort();
        return 'network-error';
      };
      const error = await resumeUpload({
        ...resumeOptions(server, records, fileOf(content), record),
        signal: controller.signal,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TransferAbortedError);
      expect([...server.multipart.values()][0]?.aborted).toBe(true);
      expect(await records.all()).toEqual([]);
    });
  },
);
