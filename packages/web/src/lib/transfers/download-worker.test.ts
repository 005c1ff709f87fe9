import { downloadMessages } from '@coffer/contracts';
import { IntegrityError } from '@coffer/crypto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { responseTransfer } from '../crypto-worker/chunk-cipher';
import { processCryptoRequest } from '../crypto-worker/process-request';
import type { CryptoRequest } from '../crypto-worker/protocol';
import { createWorkerChunkCipher, type CryptoWorkerLike } from '../crypto-worker/worker-chunk-cipher';
import { PagePort, runDownloadOnPort } from '../crypto-worker/download-job';
import type { DownloadPageMessage, DownloadWorkerMessage } from '../crypto-worker/protocol';
import { openFileTargetSink } from './save/fs-access-sink';
import { downloadFile, type DownloadOptions } from './download';
import type { SaveSink } from './save/save-sink';
import { FakeCofferServer, concat, patternBytes } from './testing/fake-coffer-server';
import { ownerKeyPair } from './testing/keys';
import { MemorySink } from './testing/memory-sink';
import { ProgressLog } from './testing/progress-log';
import { encryptForStorage } from './testing/stored-file';

const chunkSize = 1024;

/**
 * The crypto worker on this thread with a worker's message semantics: every message is
 * structured-cloned with its transfer list (the download's MessagePort moves; buffers detach),
 * and the real request handler answers it. Its `fetch` is the global one, which the tests stub.
 */
class InThreadWorker extends EventTarget implements CryptoWorkerLike {
  readonly ops: string[] = [];

  postMessage(message: unknown, transfer?: Transferable[] | StructuredSerializeOptions): void {
    const list = Array.isArray(transfer) ? transfer : (transfer?.transfer ?? []);
    const request = structuredClone(message, { transfer: list }) as CryptoRequest;
    this.ops.push(request.op);
    void processCryptoRequest(request).then((response) => {
      const data = structuredClone(response, { transfer: responseTransfer(response) });
      this.dispatchEvent(new MessageEvent('message', { data }));
    });
  }

  terminate(): void {
    // Nothing runs in the background.
  }
}

let owner: CryptoKeyPair;
beforeAll(async () => {
  owner = await ownerKeyPair();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

async function setUp(content: Uint8Array) {
  const server = new FakeCofferServer();
  const { ciphertext, encryptionInfo } = await encryptForStorage(content, owner.publicKey, chunkSize);
  const item = server.addFile('report.pdf', content.length, encryptionInfo, ciphertext);
  // The worker fetches with the global fetch; the page's fetchImpl must never see the content.
  const workerFetch = vi.fn((input: RequestInfo | URL, init?: RequestInit) =>
    server.fetch(input instanceof Request ? input.url : input.toString(), init),
  );
  vi.stubGlobal('fetch', workerFetch);
  const pageFetch = vi.fn((url: string, init?: RequestInit) => server.fetch(url, init));
  const worker = new InThreadWorker();
  const progress = new ProgressLog();
  const options = (sink: SaveSink): DownloadOptions => ({
    api: server.api,
    target: { fileId: item.fileId, source: 'own', fileName: 'report.pdf', size: content.length },
    privateKey: owner.privateKey,
    cipher: createWorkerChunkCipher(() => worker),
    signal: new AbortController().signal,
    onProgress: progress.listener,
    saveMethod: 'service-worker',
    saveCapabilities: { fsAccess: false, serviceWorker: true },
    openSink: () => Promise.resolve(sink),
    fetchImpl: pageFetch as typeof fetch,
    retryDelaysMs: [0, 0, 0],
    testFormat: { chunkSize },
  });
  return { server, item, worker, workerFetch, pageFetch, progress, options };
}

describe('download in the crypto worker', () => {
  it('fetches and decrypts there; the page only answers, shows progress and keeps what it is sent', async () => {
    const content = patternBytes(5000, 3);
    const { server, worker, workerFetch, pageFetch, progress, options, item } = await setUp(content);
    const sink = new MemorySink();
    await downloadFile(options(sink));

    expect(sink.state).toBe('closed');
    expect(concat(sink.chunks)).toEqual(content);
    expect(worker.ops).toEqual(['download']);
    expect(
      workerFetch.mock.calls.map(([url]) => (url instanceof Request ? url.url : url.toString())),
    ).toEqual([`/api/users/files/${item.fileId}/download`]);
    // The page asked for the metadata only (through its API client), never for the content.
    expect(pageFetch).not.toHaveBeenCalled();
    expect(server.log).toEqual([
      `GET /api/users/files/${item.fileId}`,
      `GET /api/users/files/${item.fileId}/download`,
    ]);
    expect(progress.texts).toContain(downloadMessages.downloadingAndDecrypting);
    expect(progress.texts.at(-1)).toBe(downloadMessages.complete);
    progress.expectSpecSteps();
  });

  it('writes to a page sink (the Blob fallback) through the port, and aborts it on an integrity failure', async () => {
    const content = patternBytes(3000, 4);
    const ok = await setUp(content);
    const sink = new MemorySink();
    await downloadFile(ok.options(sink));
    expect(sink.state).toBe('closed');
    expect(concat(sink.chunks)).toEqual(content);

    const bad = await setUp(content);
    bad.server.downloadBehaviour = 'tamper';
    const tampered = new MemorySink();
    await expect(downloadFile(bad.options(tampered))).rejects.toBeInstanceOf(IntegrityError);
    expect(tampered.state).toBe('aborted');
    // The page got the verified first chunk, nothing of the tampered second one (never offered).
    expect(concat(tampered.chunks)).toEqual(content.subarray(0, chunkSize));
  });

  it('File System Access: a tampered chunk aborts the picked file (discarded), and nothing of that chunk was written', async () => {
    const content = patternBytes(3000, 5);
    const server = new FakeCofferServer();
    const { ciphertext, encryptionInfo, fileKey } = await encryptForStorage(
      content,
      owner.publicKey,
      chunkSize,
    );
    const item = server.addFile('report.pdf', content.length, encryptionInfo, ciphertext);
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
      server.fetch(input instanceof Request ? input.url : input.toString(), init),
    );
    // One byte flipped in the middle of the stored object: inside the second of three chunks.
    server.downloadBehaviour = 'tamper';
    const written: number[] = [];
    const ends: string[] = [];
    const handle = {
      createWritable: () =>
        Promise.resolve({
          write: (bytes: Uint8Array) => {
            written.push(...bytes);
            return Promise.resolve();
          },
          close: () => {
            ends.push('close');
            return Promise.resolve();
          },
          abort: () => {
            ends.push('abort');
            return Promise.resolve();
          },
        } as unknown as FileSystemWritableFileStream),
    };
    const channel = new MessageChannel();
    // The page: fresh headers for each request.
    channel.port2.onmessage = (event: MessageEvent<DownloadWorkerMessage>) => {
      const message = event.data;
      if (message.type === 'call')
        channel.port2.postMessage({
          type: 'return',
          seq: message.seq,
          value: {},
        } satisfies DownloadPageMessage);
    };
    const page = new PagePort(channel.port1);
    const job = {
      fileKey,
      size: content.length,
      chunkSize,
      downloadPath: `/users/files/${item.fileId}/download`,
      retryDelaysMs: [],
    };
    // Chunks verified and decrypted in slices of 96 bytes: the tampered chunk has 11.
    await expect(runDownloadOnPort(job, page, () => openFileTargetSink(handle), 96)).rejects.toBeInstanceOf(
      IntegrityError,
    );
    page.close();
    channel.port2.close();
    expect(ends).toEqual(['abort']);
    expect(new Uint8Array(written)).toEqual(content.subarray(0, chunkSize));
  });

  it('resumes a broken connection from the worker with a Range request', async () => {
    const content = patternBytes(5000, 6);
    const { server, options } = await setUp(content);
    server.downloadCuts = [{ at: 2 * (chunkSize + 28) + 100, how: 'error' }];
    const sink = new MemorySink();
    await downloadFile(options(sink));
    expect(server.downloadRanges).toEqual([null, `bytes=${2 * (chunkSize + 28)}-`]);
    expect(concat(sink.chunks)).toEqual(content);
  });
});
