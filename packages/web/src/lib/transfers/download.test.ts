import { decryptingChunkText, downloadMessages } from '@coffer/contracts';
import { generateFileKey, IntegrityError, wrapFileKey } from '@coffer/crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createInProcessChunkCipher, type ChunkCipher } from '../crypto-worker';
import { downloadFile, type DownloadOptions } from './download';
import { DOWNLOAD_NETWORK_ERROR_TEXT, FILE_KEY_UNDECRYPTABLE_TEXT } from './error-mapping';
import type { SaveSinkOpener } from './save/save-sink';
import { FakeCofferServer, concat, patternBytes } from './testing/fake-coffer-server';
import { ownerKeyPair, recipientKeyPair } from './testing/keys';
import { MemorySink } from './testing/memory-sink';
import { ProgressLog } from './testing/progress-log';
import { encryptForStorage } from './testing/stored-file';
import { TransferAbortedError, TransferError } from './transfer-errors';

const chunkSize = 1024;
const testFormat = { chunkSize };

let owner: CryptoKeyPair;
let recipient: CryptoKeyPair;
beforeAll(async () => {
  [owner, recipient] = await Promise.all([ownerKeyPair(), recipientKeyPair()]);
});

async function storedFile(server: FakeCofferServer, content: Uint8Array) {
  const { ciphertext, encryptionInfo, fileKey } = await encryptForStorage(
    content,
    owner.publicKey,
    chunkSize,
  );
  const item = server.addFile('report.pdf', content.length, encryptionInfo, ciphertext);
  return { item, fileKey };
}

/** A stored file shared with the recipient: the server holds their copy of its key too. */
async function sharedFile(server: FakeCofferServer, content: Uint8Array) {
  const { item, fileKey } = await storedFile(server, content);
  const stored = server.files.get(item.fileId);
  if (stored === undefined) throw new Error('not stored');
  // The owner's extractable key re-wrapped for the recipient, as sharing does.
  const sharedKey = await wrapFileKey(fileKey, recipient.publicKey);
  stored.sharedKey = sharedKey;
  return { item, stored, sharedKey };
}

function options(
  server: FakeCofferServer,
  fileId: string,
  size: number,
  sink: MemorySink,
  extra: Partial<DownloadOptions> = {},
): DownloadOptions {
  return {
    api: server.api,
    target: { fileId, source: 'own', fileName: 'report.pdf', size },
    privateKey: owner.privateKey,
    cipher: createInProcessChunkCipher(),
    signal: new AbortController().signal,
    onProgress: () => undefined,
    saveMethod: 'service-worker',
    saveCapabilities: { fsAccess: false, serviceWorker: true },
    openSink: () => Promise.resolve(sink),
    fetchImpl: server.fetch as typeof fetch,
    // Reconnections happen at once in tests.
    retryDelaysMs: [0, 0, 0],
    testFormat,
    ...extra,
  };
}

describe('download', () => {
  it('fails, instead of waiting forever, when the crypto worker feeding the service worker dies', async () => {
    const server = new FakeCofferServer();
    const content = patternBytes(3000, 5);
    const { item } = await storedFile(server, content);
    const sink = new MemorySink();
    const fed: MessagePort[] = [];
    const cipher: ChunkCipher = {
      ...createInProcessChunkCipher(),
      streaming: () => Promise.resolve(true),
      // The worker was terminated mid-download: its request fails on the page.
      feedDownload: (_job, _host, feed) => {
        fed.push(feed);
        return Promise.reject(new Error('The encryption worker was stopped'));
      },
    };
    // A service worker that waits for chunks from the feed until the download's signal ends it.
    const serviceWorkerDownload: DownloadOptions['serviceWorkerDownload'] = (_job, host, _info, swOptions) =>
      new Promise<void>((_resolve, reject) => {
        expect(swOptions?.feed).toBeDefined();
        host.signal.addEventListener('abort', () => {
          reject(new TransferAbortedError(downloadMessages.aborted));
        });
      });
    const outcome = await downloadFile(
      options(server, item.fileId, content.length, sink, { cipher, serviceWorkerDownload }),
    ).then(
      () => null,
      (error: unknown) => error,
    );
    expect(fed).toHaveLength(1);
    expect(outcome).toBeInstanceOf(Error);
    // The worker's failure, not a cancel the user never made.
    expect(outcome).not.toBeInstanceOf(TransferAbortedError);
  });

  it('streams, decrypts chunk by chunk and saves exactly the original bytes', async () => {
    const server = new FakeCofferServer();
    const content = patternBytes(5000, 11);
    const { item } = await storedFile(server, content);
    const sink = new MemorySink();
    const progress = new ProgressLog();
    const openSink = vi.fn<SaveSinkOpener>(() => Promise.resolve(sink));
    await downloadFile(options(server, item.fileId, 5000, sink, { onProgress: progress.listener, openSink }));

    expect(sink.state).toBe('closed');
    expect(concat(sink.chunks)).toEqual(content);
    expect(sink.chunks.map((chunk) => chunk.length)).toEqual([1024, 1024, 1024, 1024, 904]);
    expect(openSink).toHaveBeenCalledWith('service-worker', {
      fileName: 'report.pdf',
      size: 5000,
      contentType: 'application/octet-stream',
    });
    expect(server.log).toEqual([
      `GET /api/users/files/${item.fileId}`,
      `GET /api/users/files/${item.fileId}/download`,
    ]);
    expect(server.authorizations.every((value) => value.startsWith('Bearer '))).toBe(true);

    expect(progress.texts[0]).toBe(downloadMessages.preparing);
    expect(progress.texts).toContain(downloadMessages.downloadingAndDecrypting);
    expect(progress.texts).toContain(decryptingChunkText(5, 5));
    expect(progress.texts.at(-1)).toBe(downloadMessages.complete);
    expect(progress.events.at(-1)?.percent).toBe(100);
    progress.expectSpecSteps();
  });

  it("downloads a shared file with the recipient's copy of the key", async () => {
    const server = new FakeCofferServer();
    const content = patternBytes(3000, 5);
    const { item } = await sharedFile(server, content);
    const sink = new MemorySink();
    await downloadFile({
      ...options(server, item.fileId, 3000, sink),
      target: { fileId: item.fileId, source: 'shared', fileName: 'report.pdf', size: 3000 },
      privateKey: recipient.privateKey,
    });
    expect(concat(sink.chunks)).toEqual(content);
    expect(server.log).toEqual([
      `GET /api/users/files/shared/${item.fileId}`,
      `GET /api/users/files/shared/${item.fileId}/download`,
    ]);
  });

  it('uses the metadata a check already accepted, and does not ask the server again', async () => {
    const server = new FakeCofferServer();
    const content = patternBytes(3000, 7);
    const { item, stored, sharedKey } = await sharedFile(server, content);
    const checked = {
      source: 'shared' as const,
      shared: { file: stored.metadata, owner: 'owner@example.com', encryptedFileKey: sharedKey },
    };
    // From now on the server answers the metadata with another key: the download must not see it.
    stored.sharedKey = await wrapFileKey(await generateFileKey(), recipient.publicKey);
    const sink = new MemorySink();
    await downloadFile({
      ...options(server, item.fileId, 3000, sink),
      target: { fileId: item.fileId, source: 'shared', fileName: 'report.pdf', size: 3000, checked },
      privateKey: recipient.privateKey,
    });
    expect(concat(sink.chunks)).toEqual(content);
    expect(server.log).toEqual([`GET /api/users/files/shared/${item.fileId}/download`]);
    // A checked answer of the other kind is refused rather than misread.
    await expect(
      downloadFile({
        ...options(server, item.fileId, 3000, new MemorySink()),
        target: { fileId: item.fileId, source: 'own', fileName: 'report.pdf', size: 3000, checked },
      }),
    ).rejects.toBeInstanceOf(TransferError);
  });

  it('runs the verify hook on the metadata it uses, and stops before any content when it throws', async () => {
    const server = new FakeCofferServer();
    const { item } = await storedFile(server, patternBytes(2000, 3));
    const seen: unknown[] = [];
    const sink = new MemorySink();
    const openSink = vi.fn<SaveSinkOpener>(() => Promise.resolve(sink));
    const refusal = new TransferError('SIGNATURE', 'Changed after you signed it (name)');
    const error = await downloadFile({
      ...options(server, item.fileId, 2000, sink, { openSink }),
      target: {
        fileId: item.fileId,
        source: 'own',
        fileName: 'report.pdf',
        size: 2000,
        verify: (raw) => {
          seen.push(raw);
          return Promise.reject(refusal);
        },
      },
    }).catch((e: unknown) => e);
    expect(error).toBe(refusal);
    expect(seen).toEqual([{ source: 'own', file: server.files.get(item.fileId)?.metadata }]);
    expect(server.log).toEqual([`GET /api/users/files/${item.fileId}`]);
    expect(openSink).not.toHaveBeenCalled();
  });

  it('writes each chunk before the next one is decrypted (order, two chunks in flight)', async () => {
    const server = new FakeCofferServer();
    const { item } = await storedFile(server, patternBytes(4000));
    const events: string[] = [];
    const inner = createInProcessChunkCipher();
    const cipher: ChunkCipher = {
      ...inner,
      decrypt: (key, index, isLast, encrypted) => {
        events.push(`decrypt ${index}`);
        return inner.decrypt(key, index, isLast, encrypted);
      },
    };
    const sink = new MemorySink();
    const write = sink.write.bind(sink);
    sink.write = async (bytes) => {
      await new Promise((resolve) => setTimeout(resolve, 2));
      events.push(`write ${sink.chunks.length}`);
      return write(bytes);
    };
    await downloadFile(options(server, item.fileId, 4000, sink, { cipher }));
    expect(events).toEqual([
      'decrypt 0',
      'write 0',
      'decrypt 1',
      'write 1',
      'decrypt 2',
      'write 2',
      'decrypt 3',
      'write 3',
    ]);
  });

  it.each(['tamper', 'truncate', 'extend'] as const)(
    'fails with IntegrityError on a %sed object and aborts the sink (no complete file)',
    async (behaviour) => {
      const server = new FakeCofferServer();
      const { item } = await storedFile(server, patternBytes(5000, 2));
      server.downloadBehaviour = behaviour;
      const sink = new MemorySink();
      await expect(downloadFile(options(server, item.fileId, 5000, sink))).rejects.toBeInstanceOf(
        IntegrityError,
      );
      expect(sink.state).toBe('aborted');
      expect(sink.abortReason).toBeInstanceOf(IntegrityError);
      // Only verified chunks were ever written, and never the ones after the damage.
      expect(sink.chunks.length).toBeLessThan(5);
    },
  );

  describe('a connection that breaks', () => {
    // 5000 bytes in 1024-byte chunks: five encrypted chunks of 1052 bytes (the last 932).
    const encryptedChunk = 1024 + 28;

    it.each(['error', 'end'] as const)(
      'mid-chunk (%s) resumes with a Range request from that chunk’s first byte',
      async (how) => {
        const server = new FakeCofferServer();
        const content = patternBytes(5000, 5);
        const { item } = await storedFile(server, content);
        server.downloadCuts = [{ at: 2 * encryptedChunk + 500, how }];
        const sink = new MemorySink();
        await downloadFile(options(server, item.fileId, 5000, sink));
        expect(server.downloadRanges).toEqual([null, `bytes=${2 * encryptedChunk}-`]);
        expect(sink.state).toBe('closed');
        expect(concat(sink.chunks)).toEqual(content);
      },
    );

    it('before the first byte, and again after the resume, still ends with the original bytes', async () => {
      const server = new FakeCofferServer();
      const content = patternBytes(5000, 6);
      const { item } = await storedFile(server, content);
      server.downloadCuts = [
        { at: 0, how: 'error' },
        { at: encryptedChunk + 10, how: 'end' },
        { at: 4 * encryptedChunk + 1, how: 'error' },
      ];
      const sink = new MemorySink();
      await downloadFile(options(server, item.fileId, 5000, sink));
      expect(server.downloadRanges).toEqual([
        null,
        null,
        `bytes=${encryptedChunk}-`,
        `bytes=${4 * encryptedChunk}-`,
      ]);
      expect(concat(sink.chunks)).toEqual(content);
    });

    it('at the same place every time fails after the retries, leaving no complete file', async () => {
      const server = new FakeCofferServer();
      const { item } = await storedFile(server, patternBytes(5000, 7));
      const at = 3 * encryptedChunk + 100;
      server.downloadCuts = [1, 2, 3, 4].map(() => ({ at, how: 'end' as const }));
      const sink = new MemorySink();
      await expect(downloadFile(options(server, item.fileId, 5000, sink))).rejects.toBeInstanceOf(
        IntegrityError,
      );
      expect(server.downloadRanges).toHaveLength(4);
      expect(sink.state).toBe('aborted');
      expect(sink.chunks.length).toBeLessThanOrEqual(3);
    });

    it('fails instead of resuming when the server answers a Range request with the whole object', async () => {
      const server = new FakeCofferServer();
      const { item } = await storedFile(server, patternBytes(5000, 8));
      server.downloadCuts = [{ at: 2 * encryptedChunk + 1, how: 'error' }];
      const ignoringRange = ((url: string, init: RequestInit = {}) => {
        const headers = new Headers(init.headers);
        headers.delete('Range');
        return server.fetch(url, { ...init, headers });
      }) as typeof fetch;
      const sink = new MemorySink();
      await expect(
        downloadFile(options(server, item.fileId, 5000, sink, { fetchImpl: ignoringRange })),
      ).rejects.toMatchObject({ code: 'HTTP', message: downloadMessages.defaultError });
      expect(sink.state).toBe('aborted');
    });

    it('stops waiting to reconnect when the download is cancelled', async () => {
      const server = new FakeCofferServer();
      const { item } = await storedFile(server, patternBytes(5000, 9));
      server.downloadCuts = [{ at: encryptedChunk + 1, how: 'error' }];
      const controller = new AbortController();
      const sink = new MemorySink();
      const download = downloadFile(
        options(server, item.fileId, 5000, sink, { signal: controller.signal, retryDelaysMs: [60_000] }),
      );
      await vi.waitFor(() => {
        expect(sink.chunks.length).toBe(1);
      });
      controller.abort();
      await expect(download).rejects.toBeInstanceOf(TransferAbortedError);
      expect(server.downloadRanges).toEqual([null]);
      expect(sink.state).toBe('aborted');
    });
  });

  it('stops and aborts the sink when cancelled mid-stream', async () => {
    const server = new FakeCofferServer();
    const { item } = await storedFile(server, patternBytes(5000));
    server.downloadBehaviour = 'stall';
    const controller = new AbortController();
    const sink = new MemorySink();
    const progress = new ProgressLog();
    const download = downloadFile(
      options(server, item.fileId, 5000, sink, { signal: controller.signal, onProgress: progress.listener }),
    );
    await vi.waitFor(() => {
      expect(progress.events.some((event) => event.percent > 0)).toBe(true);
    });
    controller.abort();
    await expect(download).rejects.toBeInstanceOf(TransferAbortedError);
    await expect(download).rejects.toMatchObject({ message: downloadMessages.aborted });
    expect(sink.state).toBe('aborted');
  });

  it('aborts a write that waits for the browser', async () => {
    const server = new FakeCofferServer();
    const { item } = await storedFile(server, patternBytes(3000));
    const controller = new AbortController();
    const sink = new MemorySink();
    sink.write = () => {
      controller.abort();
      return new Promise(() => undefined);
    };
    await expect(
      downloadFile(options(server, item.fileId, 3000, sink, { signal: controller.signal })),
    ).rejects.toBeInstanceOf(TransferAbortedError);
    expect(sink.state).toBe('aborted');
  });

  it('refuses an unencrypted file', async () => {
    const server = new FakeCofferServer();
    const item = server.addFile('plain.txt', 3, null, new Uint8Array([1, 2, 3]));
    const sink = new MemorySink();
    await expect(downloadFile(options(server, item.fileId, 3, sink))).rejects.toMatchObject({
      code: 'NOT_ENCRYPTED',
      message: downloadMessages.notEncrypted,
    });
    expect(server.log).toHaveLength(1);
  });

  it('needs a shared key string and the unlocked private key', async () => {
    const server = new FakeCofferServer();
    const { item } = await storedFile(server, patternBytes(100));
    const sink = new MemorySink();
    await expect(
      downloadFile({
        ...options(server, item.fileId, 100, sink),
        target: { fileId: item.fileId, source: 'shared', fileName: 'x', size: 100 },
      }),
    ).rejects.toMatchObject({ code: 'FILE_KEY', message: downloadMessages.missingSharedKey });
    await expect(
      downloadFile({ ...options(server, item.fileId, 100, sink), privateKey: null }),
    ).rejects.toMatchObject({
      code: 'PRECONDITION',
      message: downloadMessages.notUnlocked,
    });
    await expect(
      downloadFile({ ...options(server, item.fileId, 100, sink), privateKey: recipient.privateKey }),
    ).rejects.toMatchObject({ code: 'FILE_KEY', message: FILE_KEY_UNDECRYPTABLE_TEXT });
  });

  it('maps failed answers to the spec texts', async () => {
    const server = new FakeCofferServer();
    const sink = new MemorySink();
    await expect(downloadFile(options(server, 'missing', 10, sink))).rejects.toMatchObject({
      message: downloadMessages.fileGone,
    });

    const { item } = await storedFile(server, patternBytes(100));
    const failing = (response: Response) => (url: string, init?: RequestInit) =>
      url.endsWith('/download') ? Promise.resolve(response) : server.fetch(url, init);
    await expect(
      downloadFile(
        options(server, item.fileId, 100, sink, {
          fetchImpl: failing(
            new Response('oops', { status: 500, statusText: 'Internal Server Error' }),
          ) as typeof fetch,
        }),
      ),
    ).rejects.toMatchObject({ code: 'HTTP', message: 'Download failed: 500 Internal Server Error' });
    expect(server.unauthorizedReports).toBe(0);
    await expect(
      downloadFile(
        options(server, item.fileId, 100, sink, {
          fetchImpl: failing(
            new Response('{"code":"UNAUTHORIZED","message":"x"}', { status: 401 }),
          ) as typeof fetch,
        }),
      ),
    ).rejects.toMatchObject({ code: 'HTTP' });
    // The stream request bypasses the API client: the session still hears of the 401.
    expect(server.unauthorizedReports).toBe(1);
    await expect(
      downloadFile(
        options(server, item.fileId, 100, sink, {
          fetchImpl: failing(
            new Response('{"code":"DOWNLOAD_FAILED","message":"x"}', { status: 400 }),
          ) as typeof fetch,
        }),
      ),
    ).rejects.toMatchObject({ message: downloadMessages.failed });
    await expect(
      downloadFile(
        options(server, item.fileId, 100, sink, {
          fetchImpl: ((url: string, init?: RequestInit) =>
            url.endsWith('/download')
              ? Promise.reject(new TypeError('Failed to fetch'))
              : server.fetch(url, init)) as typeof fetch,
        }),
      ),
    ).rejects.toMatchObject({ code: 'NETWORK', message: DOWNLOAD_NETWORK_ERROR_TEXT });
  });

  it('opens the save dialog synchronously, before any await, when it uses the File System Access API', async () => {
    const server = new FakeCofferServer();
    const { item } = await storedFile(server, patternBytes(2000));
    const sink = new MemorySink();
    const openSink = vi.fn<SaveSinkOpener>(() => Promise.resolve(sink));
    const download = downloadFile(
      options(server, item.fileId, 2000, sink, {
        saveMethod: 'auto',
        // auto takes the picker where there is no service worker.
        saveCapabilities: { fsAccess: true, serviceWorker: false },
        openSink,
      }),
    );
    expect(openSink).toHaveBeenCalledWith('fs-access', {
      fileName: 'report.pdf',
      size: 2000,
      contentType: 'application/octet-stream',
    });
    expect(server.log).toEqual([]);
    await download;
    expect(sink.state).toBe('closed');
  });

  it('treats a closed save dialog as a cancellation', async () => {
    const server = new FakeCofferServer();
    const openSink = vi.fn<SaveSinkOpener>(() =>
      Promise.reject(new TransferAbortedError(downloadMessages.aborted)),
    );
    const download = downloadFile(
      options(server, 'f1', 2000, new MemorySink(), {
        saveMethod: 'fs-access',
        saveCapabilities: { fsAccess: true, serviceWorker: false },
        openSink,
      }),
    );
    await expect(download).rejects.toBeInstanceOf(TransferAbortedError);
  });
});
