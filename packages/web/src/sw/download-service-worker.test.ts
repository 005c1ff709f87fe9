import { downloadMessages } from '@coffer/contracts';
import { IntegrityError } from '@coffer/crypto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createInProcessChunkCipher } from '../lib/crypto-worker';
import { downloadFile, type DownloadOptions } from '../lib/transfers/download';
import { DOWNLOAD_NOT_STARTED_TEXT } from '../lib/transfers/save/download-sw-protocol';
import {
  runDownloadInServiceWorker,
  type DownloadServiceWorkerLike,
  type ServiceWorkerDownloadOptions,
} from '../lib/transfers/save/sw-download';
import { FakeCofferServer, patternBytes } from '../lib/transfers/testing/fake-coffer-server';
import { ownerKeyPair } from '../lib/transfers/testing/keys';
import { ProgressLog } from '../lib/transfers/testing/progress-log';
import { encryptForStorage } from '../lib/transfers/testing/stored-file';
import { TransferAbortedError, TransferError } from '../lib/transfers/transfer-errors';
import {
  installDownloadServiceWorker,
  type DownloadWorkerOptions,
  type SwFetchEvent,
  type SwMessageEvent,
} from './download-service-worker';

const ORIGIN = 'http://coffer.test';
const chunkSize = 1024;

/** The browser's side of the download the iframe opened: its answer, and the bytes saved. */
interface BrowserDownload {
  readonly response: Response;
  /** Resolves with the bytes once the body ended; rejects when the stream was errored (failed download). */
  readonly saved: Promise<Uint8Array>;
  /** The bytes the browser took from the body so far (kept when the download then fails). */
  readonly taken: readonly number[];
}

/** The real service worker code against a stand-in for its global scope; the test plays the browser. */
function startServiceWorker(options: DownloadWorkerOptions = {}) {
  const handlers = new Map<string, (event: never) => void>();
  installDownloadServiceWorker(
    {
      location: { origin: ORIGIN },
      addEventListener: (type: string, handler: (event: never) => void) => handlers.set(type, handler),
      skipWaiting: () => Promise.resolve(),
    },
    { sliceBytes: 300, openSliceBytes: 96, ...options },
  );
  /** What messages asked the browser to keep the worker running for. */
  const extensions: Promise<unknown>[] = [];
  const worker: DownloadServiceWorkerLike = {
    postMessage(message, transfer = []) {
      const event: SwMessageEvent = {
        data: message,
        ports: transfer as MessagePort[],
        waitUntil: (promise) => {
          extensions.push(promise);
        },
      };
      handlers.get('message')?.(event as never);
    },
  };
  /** A request reaching the worker: its answer, or null if it let the request pass. */
  const request = (path: string): Promise<Response> | null => {
    let answer: Promise<Response> | null = null;
    const event: SwFetchEvent = {
      request: { url: `${ORIGIN}${path}` },
      respondWith: (response) => {
        answer = Promise.resolve(response);
      },
    };
    handlers.get('fetch')?.(event as never);
    return answer;
  };
  return { worker, request, extensions };
}

async function save(response: Response, cancelAfter?: number, pieces: number[] = []): Promise<Uint8Array> {
  if (response.body === null) throw new Error('no body');
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return new Uint8Array(pieces);
    pieces.push(...value);
    if (cancelAfter !== undefined && pieces.length >= cancelAfter) {
      await reader.cancel();
      return new Uint8Array(pieces);
    }
  }
}

async function savedOf(downloads: Promise<BrowserDownload>[]): Promise<Uint8Array> {
  const [first] = downloads;
  if (first === undefined) throw new Error('no download was opened');
  return (await first).saved;
}

let owner: CryptoKeyPair;
beforeAll(async () => {
  owner = await ownerKeyPair();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

async function setUp(
  content: Uint8Array,
  pageOptions: ServiceWorkerDownloadOptions = {},
  workerOptions: DownloadWorkerOptions = {},
  cancelAfter?: number,
) {
  const server = new FakeCofferServer();
  const { ciphertext, encryptionInfo } = await encryptForStorage(content, owner.publicKey, chunkSize);
  const item = server.addFile('Q3 report "final".pdf', content.length, encryptionInfo, ciphertext);
  // The service worker fetches with its global fetch; the page's fetchImpl must never see the content.
  const swFetch = vi.fn((input: RequestInfo | URL, init?: RequestInit) =>
    server.fetch(input instanceof Request ? input.url : input.toString(), init),
  );
  vi.stubGlobal('fetch', swFetch);
  const pageFetch = vi.fn((url: string, init?: RequestInit) => server.fetch(url, init));
  const sw = startServiceWorker(workerOptions);
  const downloads: Promise<BrowserDownload>[] = [];
  const removed: string[] = [];
  const secondAnswers: Promise<number>[] = [];
  const progress = new ProgressLog();
  const controller = new AbortController();
  const options: DownloadOptions = {
    api: server.api,
    target: { fileId: item.fileId, source: 'own', fileName: 'Q3 report "final".pdf', size: content.length },
    privateKey: owner.privateKey,
    cipher: createInProcessChunkCipher(),
    signal: controller.signal,
    onProgress: progress.listener,
    saveMethod: 'service-worker',
    saveCapabilities: { fsAccess: false, serviceWorker: true },
    fetchImpl: pageFetch as typeof fetch,
    retryDelaysMs: [0, 0, 0],
    testFormat: { chunkSize },
    serviceWorkerDownload: (job, host, info) =>
      runDownloadInServiceWorker(job, host, info, {
        getWorker: () => Promise.resolve(sw.worker),
        // The hidden iframe: the browser navigates, the service worker answers, the download saves.
        openUrl: (url) => {
          const answer = sw.request(url);
          // Answered once: the same URL asked again while the download runs (another tab, a link that
          // leaked) gets nothing.
          secondAnswers.push(sw.request(url)?.then((response) => response.status) ?? Promise.resolve(0));
          if (answer === null) throw new Error('the service worker let its own URL pass');
          downloads.push(
            answer.then((response) => {
              const taken: number[] = [];
              const saved = save(response, cancelAfter, taken);
              // Asserted on by the tests that expect a failed download; never unhandled meanwhile.
              saved.catch(() => undefined);
              return { response, saved, taken };
            }),
          );
          return () => {
            removed.push(url);
          };
        },
        cleanUpDelayMs: 0,
        ...pageOptions,
      }),
  };
  return {
    server,
    item,
    sw,
    swFetch,
    pageFetch,
    downloads,
    removed,
    secondAnswers,
    progress,
    controller,
    options,
  };
}

describe('download service worker', () => {
  it('fetches, decrypts and streams the file as an attachment; the page only answers and shows progress', async () => {
    const content = patternBytes(5000, 7);
    const t = await setUp(content);
    await downloadFile(t.options);
    expect(t.downloads).toHaveLength(1);
    const [first] = t.downloads;
    if (first === undefined) throw new Error('no download');
    const { response, saved } = await first;
    expect(await saved).toEqual(content);
    expect(response.headers.get('Content-Length')).toBe('5000');
    expect(response.headers.get('Content-Disposition')).toBe(
      `attachment; filename="Q3 report _final_.pdf"; filename*=UTF-8''Q3%20report%20%22final%22.pdf`,
    );
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    // The content was fetched in the service worker, with the page's auth headers.
    expect(
      t.swFetch.mock.calls.some(([url]) =>
        (url instanceof Request ? url.url : url.toString()).includes(`/files/${t.item.fileId}/download`),
      ),
    ).toBe(true);
    expect(t.pageFetch.mock.calls.some(([url]) => url.includes('/download'))).toBe(false);
    expect(t.progress.texts.at(-1)).toBe(downloadMessages.complete);
    t.progress.expectSpecSteps();
    expect(await Promise.all(t.secondAnswers)).toEqual([404]);
    // The run message kept the worker running for the download, and let it go once it ended.
    expect(t.sw.extensions.length).toBeGreaterThanOrEqual(1);
    await Promise.all(t.sw.extensions);
    // The iframe goes once the download ended.
    await vi.waitFor(() => {
      expect(t.removed).toHaveLength(1);
    });
  });

  it('fails the browser download and the transfer when a chunk does not verify: no complete file', async () => {
    const t = await setUp(patternBytes(3000, 1));
    t.server.downloadBehaviour = 'tamper';
    await expect(downloadFile(t.options)).rejects.toBeInstanceOf(IntegrityError);
    await expect(savedOf(t.downloads)).rejects.toThrow();
  });

  it('releases nothing of a chunk that does not verify: the browser took the verified chunk before it, then the download failed', async () => {
    const content = patternBytes(3000, 1);
    const t = await setUp(content);
    // One byte flipped in the middle of the stored object: inside the second chunk (11 slices of 96 bytes).
    t.server.downloadBehaviour = 'tamper';
    await expect(downloadFile(t.options)).rejects.toBeInstanceOf(IntegrityError);
    await expect(savedOf(t.downloads)).rejects.toThrow();
    const [first] = t.downloads;
    if (first === undefined) throw new Error('no download was opened');
    const { taken } = await first;
    expect(taken.length).toBeLessThanOrEqual(chunkSize);
    expect(new Uint8Array(taken)).toEqual(content.subarray(0, taken.length));
  });

  it('opens no download when the first answer fails', async () => {
    const t = await setUp(patternBytes(3000, 1));
    t.server.files.clear();
    await expect(downloadFile(t.options)).rejects.toMatchObject({ message: downloadMessages.fileGone });
    expect(t.downloads).toHaveLength(0);
  });

  it('stops in the service worker when the app cancels, and fails the browser download', async () => {
    const t = await setUp(patternBytes(5000, 2));
    t.server.downloadBehaviour = 'stall';
    const download = downloadFile(t.options);
    await vi.waitFor(() => {
      expect(t.downloads).toHaveLength(1);
    });
    t.controller.abort();
    await expect(download).rejects.toBeInstanceOf(TransferAbortedError);
    await expect(savedOf(t.downloads)).rejects.toThrow();
  });

  it('ends the transfer as aborted when the user cancels the download in the browser', async () => {
    const t = await setUp(patternBytes(5000, 4), {}, {}, 300);
    await expect(downloadFile(t.options)).rejects.toMatchObject({
      name: TransferAbortedError.name,
      message: downloadMessages.aborted,
    });
  });

  it('fails when the page never opens the download URL', async () => {
    const t = await setUp(patternBytes(3000, 1), { openUrl: () => () => undefined }, { frameTimeoutMs: 20 });
    await expect(downloadFile(t.options)).rejects.toMatchObject({ message: DOWNLOAD_NOT_STARTED_TEXT });
  });

  it('stops at once when the app cancels while the download URL has not been opened yet', async () => {
    let asked = false;
    // The frame's timeout (30 s by default) must not be what ends it.
    const t = await setUp(patternBytes(3000, 1), {
      openUrl: () => {
        asked = true;
        return () => undefined;
      },
    });
    const download = downloadFile(t.options);
    await vi.waitFor(() => {
      expect(asked).toBe(true);
    });
    t.controller.abort();
    await expect(download).rejects.toBeInstanceOf(TransferAbortedError);
  });

  it('fails instead of hanging when the service worker never answers (stopped by the browser, or one that ignores the message)', async () => {
    const silent: DownloadServiceWorkerLike = { postMessage: () => undefined };
    const t = await setUp(patternBytes(3000, 1), {
      getWorker: () => Promise.resolve(silent),
      keepAliveIntervalMs: 5,
      missedKeepAlives: 2,
    });
    const failure: unknown = await downloadFile(t.options).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransferError);
    expect(failure).not.toBeInstanceOf(TransferAbortedError);
    expect(failure).toMatchObject({ code: 'NETWORK', message: downloadMessages.defaultError });
  });

  it('answers its own unknown URLs with 404 and leaves every other request alone', async () => {
    const { request } = startServiceWorker();
    const unknown = await request('/__coffer_download__/nope/a.bin');
    expect(unknown?.status).toBe(404);
    expect(request('/api/users/files')).toBeNull();
    expect(request('/')).toBeNull();
  });

  it('answers a status message with how it opens chunks (its streaming AES-GCM self-test ran at start)', async () => {
    const { worker } = startServiceWorker();
    const channel = new MessageChannel();
    const answer = new Promise<unknown>((resolve) => {
      channel.port1.onmessage = (event) => {
        resolve(event.data);
      };
    });
    worker.postMessage({ type: 'coffer-download:status' }, [channel.port2]);
    expect(await answer).toEqual({ streaming: true, chunks: 'blobs' });
    channel.port1.close();
  });
});
