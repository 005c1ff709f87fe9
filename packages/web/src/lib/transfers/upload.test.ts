import { CHUNK_SIZE, encryptingChunkText, uploadMessages, type NewEncryptionInfo } from '@coffer/contracts';
import { chunkCount, decryptChunk, unwrapFileKey } from '@coffer/crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createWorkerChunkCipher, type ChunkCipher } from '../crypto-worker';
import { LoopbackCryptoWorker } from '../crypto-worker/testing/loopback-worker';
import { FakeCofferServer, concat, patternBytes, type PartBehaviour } from './testing/fake-coffer-server';
import { ownerKeyPair } from './testing/keys';
import { cipherFor, expectNoPartHeld, testRunOptions, usePartPath, type PartPath } from './testing/part-path';
import { ProgressLog } from './testing/progress-log';
import { TransferAbortedError, TransferError } from './transfer-errors';
import { uploadFile, type UploadOptions } from './upload';

/** Small sizes so multi-chunk and multipart paths run on kilobytes (tests only). */
const testFormat = { chunkSize: 1024, directUploadThreshold: 4096 };

let keys: CryptoKeyPair;
beforeAll(async () => {
  keys = await ownerKeyPair();
});

function options(server: FakeCofferServer, file: File, extra: Partial<UploadOptions> = {}): UploadOptions {
  return {
    ...testRunOptions(server, testFormat),
    file,
    keys: { publicKey: keys.publicKey, keyVersion: 'key-1' },
    ...extra,
  };
}

/** Decrypts a stored object chunk by chunk with the owner's key. */
async function decryptStored(
  info: NewEncryptionInfo,
  ciphertext: Uint8Array,
  chunkSize: number,
  size: number,
) {
  const fileKey = await unwrapFileKey(info.encryptedFileKey, keys.privateKey);
  const count = chunkCount(size, chunkSize);
  const pieces: Uint8Array[] = [];
  let offset = 0;
  for (let i = 0; i < count; i++) {
    const length = Math.min(chunkSize, size - i * chunkSize) + 28;
    pieces.push(
      await decryptChunk(fileKey, i, i === count - 1, ciphertext.subarray(offset, offset + length)),
    );
    offset += length;
  }
  expect(offset).toBe(ciphertext.length);
  return concat(pieces);
}

describe.each<PartPath>(['page', 'crypto worker'])('direct upload, sent from the %s', (path) => {
  usePartPath(path, expectNoPartHeld);

  it('posts the fields first, then the whole ciphertext, and the owner can decrypt it', async () => {
    const server = new FakeCofferServer();
    const content = patternBytes(5000);
    const file = new File([content], 'notes.txt', { type: 'text/plain' });
    const progress = new ProgressLog();
    // Production sizes: one chunk of C, direct below 100 MB.
    const stored = await uploadFile(
      options(server, file, { testFormat: undefined, onProgress: progress.listener }),
    );

    expect(stored.name).toBe('notes.txt');
    const [upload] = server.directUploads;
    if (upload === undefined) throw new Error('no direct upload');
    expect(upload.fieldOrder).toEqual([
      'name',
      'contentType',
      'size',
      'isEncrypted',
      'encryptionInfo',
      'file',
    ]);
    expect(upload.fields).toMatchObject({
      name: 'notes.txt',
      contentType: 'text/plain',
      size: '5000',
      isEncrypted: 'true',
    });
    const info = JSON.parse(upload.fields.encryptionInfo ?? '') as NewEncryptionInfo;
    expect(info).toMatchObject({
      version: 'key-1',
      algorithm: 'AES-GCM',
      iv: '',
      format: 'coffer-v1',
      chunkSize: CHUNK_SIZE,
    });
    expect(upload.ciphertext.length).toBe(5000 + 28);
    expect(await decryptStored(info, upload.ciphertext, CHUNK_SIZE, 5000)).toEqual(content);

    expect(progress.texts).toEqual([
      uploadMessages.preparing,
      encryptingChunkText(1, 1),
      uploadMessages.encryptingAndUploading,
      uploadMessages.complete,
    ]);
    expect(progress.events.at(-1)?.percent).toBe(100);
    progress.expectSpecSteps();
  });

  it('joins several encrypted chunks into one body', async () => {
    const server = new FakeCofferServer();
    const content = patternBytes(3000, 7);
    const stored = await uploadFile(options(server, new File([content], 'a.bin')));
    const upload = server.directUploads[0];
    if (upload === undefined) throw new Error('no direct upload');
    expect(upload.fields.contentType).toBe('application/octet-stream');
    expect(upload.ciphertext.length).toBe(3000 + 3 * 28);
    const info = JSON.parse(upload.fields.encryptionInfo ?? '') as NewEncryptionInfo;
    expect(await decryptStored(info, upload.ciphertext, 1024, 3000)).toEqual(content);
    expect(stored.size).toBe(3000);
  });

  it('uploads an empty file as one empty chunk', async () => {
    const server = new FakeCofferServer();
    await uploadFile(options(server, new File([], 'empty.txt')));
    expect(server.directUploads[0]?.ciphertext.length).toBe(28);
  });

  it.each([
    [{ status: 403, body: '{"code":"QUOTA_EXCEEDED","message":"quota"}' }, uploadMessages.quotaExceeded],
    [
      { status: 400, body: '{"code":"UPLOAD_FAILED","message":"Monthly upload limit reached"}' },
      uploadMessages.monthlyLimit,
    ],
    [{ status: 400, body: '{"code":"UPLOAD_FAILED","message":"other"}' }, uploadMessages.failed],
    [{ status: 401, body: '{"code":"UNAUTHORIZED","message":"expired"}' }, uploadMessages.sessionExpired],
    [{ status: 400, body: '{"code":"VALIDATION_FAILED","message":"name is too long"}' }, 'name is too long'],
    [{ status: 502, body: 'Bad gateway, try later' }, 'Bad gateway, try later'],
    [
      { status: 500, statusText: 'Internal Server Error', body: '' },
      'Upload failed: 500 Internal Server Error',
    ],
    [
      { status: 502, statusText: 'Bad Gateway', body: '<html>proxy</html>' },
      'Upload failed: 502 Bad Gateway',
    ],
  ])('maps the answer %j to the spec text', async (answer, text) => {
    const server = new FakeCofferServer();
    server.directBehaviour = () => ({ kind: 'response', ...answer });
    await expect(uploadFile(options(server, new File(['x'], 'x.txt')))).rejects.toMatchObject({
      code: 'HTTP',
      message: text,
    });
  });

  it('tells the session about a 401 on a part upload, so it renews the token or signs out', async () => {
    const server = new FakeCofferServer();
    server.partBehaviour = () => ({ status: 401, body: '{"code":"UNAUTHORIZED","message":"expired"}' });
    await expect(
      uploadFile(options(server, new File([patternBytes(5000)], 'big.bin'))),
    ).rejects.toMatchObject({ message: uploadMessages.sessionExpired });
    expect(server.unauthorizedReports).toBe(1);

    const direct = new FakeCofferServer();
    direct.directBehaviour = () => ({ kind: 'response', status: 403, body: '{"code":"QUOTA_EXCEEDED"}' });
    await expect(uploadFile(options(direct, new File(['x'], 'x.txt')))).rejects.toMatchObject({
      message: uploadMessages.quotaExceeded,
    });
    expect(direct.unauthorizedReports).toBe(0);
  });

  it('reports a lost connection as the network error', async () => {
    const server = new FakeCofferServer();
    server.directBehaviour = () => ({ kind: 'network-error' });
    await expect(uploadFile(options(server, new File(['x'], 'x.txt')))).rejects.toMatchObject({
      code: 'NETWORK',
      message: uploadMessages.networkError,
    });
  });

  it('needs initialised encryption and a key version', async () => {
    const server = new FakeCofferServer();
    const file = new File(['x'], 'x.txt');
    await expect(
      uploadFile({ ...options(server, file), keys: { publicKey: null, keyVersion: 'k' } }),
    ).rejects.toMatchObject({ code: 'PRECONDITION', message: uploadMessages.encryptionNotInitialized });
    await expect(
      uploadFile({ ...options(server, file), keys: { publicKey: keys.publicKey, keyVersion: '' } }),
    ).rejects.toMatchObject({ code: 'PRECONDITION', message: uploadMessages.encryptionVersionUnavailable });
  });
});

describe.each<PartPath>(['page', 'crypto worker'])('multipart upload, parts sent from the %s', (path) => {
  usePartPath(path, expectNoPartHeld);

  it('sends every encrypted chunk as its part, then completes with the ETags in order', async () => {
    const server = new FakeCofferServer();
    const content = patternBytes(10_000, 3);
    const progress = new ProgressLog();
    const parts: Uint8Array[] = [];
    server.partBehaviour = () => 'ok';
    const stored = await uploadFile(
      options(server, new File([content], 'big.bin'), { onProgress: progress.listener }),
    );

    const createCall = server.log.indexOf('POST /api/users/uploads/multipart');
    expect(createCall).toBeGreaterThanOrEqual(0);
    const puts = server.log.filter((line) => line.startsWith('PUT '));
    expect(puts).toEqual(
      Array.from({ length: 10 }, (_, i) => `PUT /api/users/uploads/multipart/up1/part/${i + 1}`),
    );
    expect(server.log.at(-1)).toBe('POST /api/users/uploads/multipart/up1/complete');
    expect(server.multipart.size).toBe(0);

    const file = server.files.get(stored.fileId);
    if (file === undefined || file.metadata.encryptionInfo === null) throw new Error('not stored');
    const info = file.metadata.encryptionInfo as NewEncryptionInfo;
    // Part n is exactly encrypted chunk n − 1: decrypt each on its own.
    const fileKey = await unwrapFileKey(info.encryptedFileKey, keys.privateKey);
    let offset = 0;
    for (let i = 0; i < 10; i++) {
      const length = Math.min(1024, 10_000 - i * 1024) + 28;
      const part = file.ciphertext.subarray(offset, offset + length);
      parts.push(await decryptChunk(fileKey, i, i === 9, part));
      offset += length;
    }
    expect(concat(parts)).toEqual(content);

    expect(progress.texts[0]).toBe(uploadMessages.preparing);
    expect(progress.texts).toContain(encryptingChunkText(1, 10));
    expect(progress.texts).toContain(uploadMessages.encryptingAndUploading);
    expect(progress.texts.at(-1)).toBe(uploadMessages.complete);
    progress.expectSpecSteps();
    expect(
      progress.events.filter((event) => event.percent > 0 && event.percent < 100).length,
    ).toBeGreaterThan(10);
    // Issue 15.12: the percentage moves while the first chunk is read and encrypted, before any part
    // is sent (reading counts for half of the work, sending for the other half).
    expect(
      progress.events.some((event) => event.text === encryptingChunkText(1, 10) && event.percent > 0),
    ).toBe(true);
  });

  it('goes on without the tab lock when the browser refuses locks (the server already created the upload)', async () => {
    const server = new FakeCofferServer();
    const content = patternBytes(10_000, 4);
    const refusing = { tryHold: () => Promise.reject(new DOMException('no locks here', 'SecurityError')) };
    const stored = await uploadFile(options(server, new File([content], 'big.bin'), { locks: refusing }));
    expect(server.log.at(-1)).toBe('POST /api/users/uploads/multipart/up1/complete');
    const file = server.files.get(stored.fileId);
    if (file === undefined || file.metadata.encryptionInfo === null) throw new Error('not stored');
    const info = file.metadata.encryptionInfo as NewEncryptionInfo;
    expect(await decryptStored(info, file.ciphertext, 1024, 10_000)).toEqual(content);
  });

  it('declares the plaintext size and the part count when it creates the upload', async () => {
    const server = new FakeCofferServer();
    await uploadFile(options(server, new File([patternBytes(5000)], 'big.bin', { type: 'video/mp4' })));
    expect(server.createRequests).toEqual([
      {
        name: 'big.bin',
        contentType: 'video/mp4',
        size: 5000,
        parts: 5,
        isEncrypted: true,
        encryptionInfo: expect.objectContaining({ version: 'key-1', format: 'coffer-v1', iv: '' }) as unknown,
      },
    ]);
  });

  it('keeps at most two chunks in flight', async () => {
    const server = new FakeCofferServer();
    const inner = cipherFor(server);
    let inFlight = 0;
    let maxInFlight = 0;
    const counted = <T>(chunk: Promise<T>): Promise<T> => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      return chunk;
    };
    const sealPart = inner.sealPart;
    const cipher: ChunkCipher = {
      ...inner,
      encryptSlice: (...slice) => counted(inner.encryptSlice(...slice)),
      ...(sealPart === undefined ? {} : { sealPart: (...slice) => counted(sealPart(...slice)) }),
    };
    server.partBehaviour = async (): Promise<PartBehaviour> => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      return 'ok';
    };
    await uploadFile(options(server, new File([patternBytes(8000)], 'big.bin'), { cipher }));
    expect(maxInFlight).toBe(2);
  });

  it('tells the session about a 401 on a part, so it renews the token or signs out', async () => {
    const server = new FakeCofferServer();
    server.partBehaviour = (partNumber) =>
      partNumber === 2 ? { status: 401, body: '{"code":"UNAUTHORIZED","message":"expired"}' } : 'ok';
    await expect(
      uploadFile(options(server, new File([patternBytes(5000)], 'big.bin'), { retryDelaysMs: [0, 0] })),
    ).rejects.toMatchObject({ code: 'HTTP', status: 401, message: uploadMessages.sessionExpired });
    expect(server.unauthorizedReports).toBe(1);
    expect(server.log.filter((line) => line.startsWith('PUT'))).toHaveLength(2);
    expect(server.log).toContain('DELETE /api/users/uploads/multipart/up1');
  });

  it('fetches the bearer header for every request', async () => {
    const server = new FakeCofferServer();
    await uploadFile(options(server, new File([patternBytes(5000)], 'big.bin')));
    expect(new Set(server.authorizations).size).toBe(server.authorizations.length);
    expect(server.authorizations.every((value) => value.startsWith('Bearer token-'))).toBe(true);
  });

  it('aborts on the server (DELETE) when cancelled mid-upload', async () => {
    const server = new FakeCofferServer();
    const controller = new AbortController();
    server.partBehaviour = (partNumber) => {
      if (partNumber === 3) controller.abort();
      return 'ok';
    };
    const upload = uploadFile(
      options(server, new File([patternBytes(10_000)], 'big.bin'), { signal: controller.signal }),
    );
    await expect(upload).rejects.toBeInstanceOf(TransferAbortedError);
    await expect(upload).rejects.toMatchObject({
      message: uploadMessages.aborted,
      serverAbortError: undefined,
    });
    expect(server.log).toContain('DELETE /api/users/uploads/multipart/up1');
    expect(server.log.some((line) => line.endsWith('/complete'))).toBe(false);
    expect(server.multipart.get('up1')?.aborted).toBe(true);
  });

  it('reports a failed server-side abort with the aborted error', async () => {
    const server = new FakeCofferServer();
    const controller = new AbortController();
    server.partBehaviour = (partNumber) => {
      if (partNumber === 2) {
        server.multipart.delete('up1');
        controller.abort();
      }
      return 'ok';
    };
    const upload = uploadFile(
      options(server, new File([patternBytes(10_000)], 'big.bin'), { signal: controller.signal }),
    );
    const error = await upload.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransferAbortedError);
    expect((error as TransferAbortedError).serverAbortError).toBeDefined();
  });

  it('fails with the spec text when a part answer has no ETag, and cleans up on the server', async () => {
    const server = new FakeCofferServer();
    server.partBehaviour = (partNumber) => (partNumber === 2 ? 'no-etag' : 'ok');
    await expect(
      uploadFile(options(server, new File([patternBytes(5000)], 'big.bin'))),
    ).rejects.toMatchObject({
      code: 'NO_ETAG',
      message: 'No ETag received for part 2',
    });
    expect(server.log).toContain('DELETE /api/users/uploads/multipart/up1');
  });

  it('fails after the last retry, with the network error, and cleans up on the server', async () => {
    const server = new FakeCofferServer();
    server.partBehaviour = () => 'network-error';
    await expect(
      uploadFile(options(server, new File([patternBytes(5000)], 'big.bin'), { retryDelaysMs: [0, 0] })),
    ).rejects.toMatchObject({ code: 'NETWORK', message: uploadMessages.networkError });
    expect(server.log.filter((line) => line.startsWith('PUT'))).toHaveLength(3);
    expect(server.log).toContain('DELETE /api/users/uploads/multipart/up1');
  });

  it('retries a part after a network error or a 5xx answer, but not after a 4xx', async () => {
    const server = new FakeCofferServer();
    const failures: Record<number, number> = {};
    server.partBehaviour = (partNumber) => {
      failures[partNumber] = (failures[partNumber] ?? 0) + 1;
      if (partNumber === 2 && failures[partNumber] === 1) return 'network-error';
      if (partNumber === 3 && failures[partNumber] === 1) return { status: 503, body: '' };
      return 'ok';
    };
    await uploadFile(options(server, new File([patternBytes(5000)], 'big.bin'), { retryDelaysMs: [0, 0] }));
    expect(failures).toMatchObject({ 1: 1, 2: 2, 3: 2, 4: 1, 5: 1 });

    const refused = new FakeCofferServer();
    refused.partBehaviour = () => ({ status: 403, body: '{"code":"QUOTA_EXCEEDED","message":"q"}' });
    await expect(
      uploadFile(options(refused, new File([patternBytes(5000)], 'big.bin'), { retryDelaysMs: [0, 0] })),
    ).rejects.toMatchObject({ message: uploadMessages.quotaExceeded });
    expect(refused.log.filter((line) => line.startsWith('PUT'))).toHaveLength(1);
  });

  it('maps a refused create call through the spec mapping', async () => {
    const server = new FakeCofferServer();
    const original = server.fetch;
    (server as { fetch: typeof original }).fetch = (url, init) =>
      url.endsWith('/uploads/multipart')
        ? Promise.resolve(new Response('{"code":"UNAUTHORIZED","message":"x"}', { status: 401 }))
        : original(url, init);
    const error = await uploadFile(options(server, new File([patternBytes(5000)], 'big.bin'))).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TransferError);
    expect((error as TransferError).message).toBe(uploadMessages.sessionExpired);
  });
});

describe('multipart upload through the crypto worker, when the worker stops', () => {
  /** A worker cipher whose workers (loopback, through `server`) are listed as they start. */
  function workerCipher(server: FakeCofferServer) {
    const workers: LoopbackCryptoWorker[] = [];
    const cipher = createWorkerChunkCipher(() => {
      const worker = new LoopbackCryptoWorker(server.createXhr);
      workers.push(worker);
      return worker;
    });
    return { workers, cipher };
  }

  /** Uploads `content` with `cipher`; checks the stored object decrypts to it and no part is held. */
  async function uploadsWhole(
    server: FakeCofferServer,
    cipher: ChunkCipher,
    workers: LoopbackCryptoWorker[],
    content: Uint8Array<ArrayBuffer>,
  ): Promise<void> {
    const stored = await uploadFile(
      options(server, new File([content], 'big.bin'), { cipher, retryDelaysMs: [0, 0] }),
    );
    const file = server.files.get(stored.fileId);
    if (file === undefined || file.metadata.encryptionInfo === null) throw new Error('not stored');
    const info = file.metadata.encryptionInfo as NewEncryptionInfo;
    expect(await decryptStored(info, file.ciphertext, 1024, content.length)).toEqual(content);
    await workers.at(-1)?.idle();
    expect(workers.at(-1)?.heldParts).toBe(0);
  }

  it('seals the lost parts again in a new worker and sends them: the file arrives whole', async () => {
    const server = new FakeCofferServer();
    const { workers, cipher } = workerCipher(server);
    let crashed = false;
    server.partBehaviour = (partNumber) => {
      if (partNumber !== 2 || crashed) return 'ok';
      // The worker dies while part 2 is on its way (and part 3 is being sealed): never answered.
      crashed = true;
      workers.at(-1)?.crash();
      return new Promise<PartBehaviour>(() => undefined);
    };
    await uploadsWhole(server, cipher, workers, patternBytes(5000, 7));
    expect(workers.map((worker) => worker.terminated)).toEqual([true, false]);
  });

  it('seals a chunk again when its worker stopped while sealing it', async () => {
    const server = new FakeCofferServer();
    const { workers, cipher: inner } = workerCipher(server);
    const sealPart = inner.sealPart;
    if (sealPart === undefined) throw new Error('the worker cipher seals parts');
    let crashed = false;
    const cipher: ChunkCipher = {
      ...inner,
      sealPart: (...slice) => {
        const sealing = sealPart(...slice);
        // Chunk 3 was just asked for (part 2 waits to be sent): the worker dies before answering.
        if (slice[1] === 2 && !crashed) {
          crashed = true;
          workers.at(-1)?.crash();
        }
        return sealing;
      },
    };
    await uploadsWhole(server, cipher, workers, patternBytes(5000, 8));
    expect(crashed).toBe(true);
  });
});
