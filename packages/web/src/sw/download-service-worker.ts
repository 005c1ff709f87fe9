import { downloadMessages } from '@coffer/contracts';
import { runDownloadOnPort, PagePort } from '../lib/crypto-worker/download-job';
import { chunkFeed } from '../lib/crypto-worker/download-feed';
import { describeFailure } from '../lib/crypto-worker/chunk-cipher';
import type { SaveSink } from '../lib/transfers/save/save-sink';
import { createStreamSink } from '../lib/transfers/save/stream-sink';
import { TransferAbortedError, TransferError } from '../lib/transfers/transfer-errors';
import { checkStreamingGcm } from '../lib/crypto-worker/streaming-support';
import { createChunkCache } from '../lib/transfers/download/chunk-cache';
import type { ChunkStores } from '../lib/transfers/download/chunk-store';
import {
  DOWNLOAD_NOT_STARTED_TEXT,
  DOWNLOAD_URL_PREFIX,
  type SwDownloadControlMessage,
  type RunDownloadMessage,
  type StatusAnswer,
} from '../lib/transfers/save/download-sw-protocol';

/**
 * The download service worker (`/download-sw.js`, built from `download-sw.entry.ts`).
 *
 * The page checks the metadata, unwraps the file key (a non-extractable `CryptoKey`) and posts this
 * worker a `run` message with the job and a MessagePort, and by default a second port: the feed of
 * verified chunks from the crypto worker, which fetches (with `Range` resume) and verifies
 * (`lib/crypto-worker/download-feed.ts`). Without a feed (or where the crypto worker declines) this
 * worker fetches and verifies itself. Either way it decrypts each verified chunk and queues the
 * plaintext in the response stream that answers the download's URL, which the page opens in a hidden
 * iframe once the first answer arrived. The plaintext never passes through another thread: the
 * browser's download writer reads it from this worker's stream.
 *
 * It answers ONLY its own `/__coffer_download__/` URLs; every other request goes to the network
 * untouched, and it never controls the app's pages (its scope is that prefix).
 */

/** The parts of the service worker's global scope this worker uses (a stand-in in unit tests). */
export interface DownloadWorkerScope {
  readonly location: { readonly origin: string };
  addEventListener(type: 'install', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: SwMessageEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: SwFetchEvent) => void): void;
  skipWaiting(): Promise<void>;
}

export interface SwMessageEvent {
  readonly data: unknown;
  readonly ports: readonly MessagePort[];
  /** Keeps the worker running until the promise settles (an `ExtendableMessageEvent`). */
  waitUntil(promise: Promise<unknown>): void;
}

export interface SwFetchEvent {
  readonly request: { readonly url: string };
  respondWith(response: Response | Promise<Response>): void;
}

export interface DownloadWorkerOptions {
  /** How long the page may take to open the download's URL once asked to; then the download fails. */
  readonly frameTimeoutMs?: number;
  /** Bytes per queued slice (tests use small ones). */
  readonly sliceBytes?: number;
  /** Bytes per slice a chunk is received, verified and decrypted in (tests use small ones; a multiple of 16). */
  readonly openSliceBytes?: number;
  /** Where chunks wait between verify and decrypt (default: files of the origin private file system). */
  readonly chunkStores?: ChunkStores;
}

const FRAME_TIMEOUT_MS = 30_000;
/**
 * How long one message keeps this worker running while its download runs. Browsers stop an idle
 * service worker after ~30 s and end one whose event outlasts ~5 min; the page's keep-alives (every
 * 10 s, about once a minute in a tab hidden for long, where timers are throttled) each extend it by
 * this much, so a download in a background tab is not cut.
 */
const KEEP_RUNNING_MS = 4 * 60_000;

interface RunningDownload {
  readonly page: PagePort;
  /** Settles when the download ended, whatever the outcome. */
  readonly ended: Promise<void>;
  readonly fileName: string;
  readonly size: number;
  /** Set while the pipeline waits for the page to open the download's URL: makes the response body. */
  frameWaiter: (() => ReadableStream<Uint8Array<ArrayBuffer>>) | null;
}

export function installDownloadServiceWorker(
  scope: DownloadWorkerScope,
  options: DownloadWorkerOptions = {},
): void {
  const running = new Map<string, RunningDownload>();
  // Once, at start: downloads here verify and decrypt slice by slice only where it passed.
  const streaming = checkStreamingGcm();
  // At once, so what a stopped worker left on disk is swept when this one starts.
  const chunkStores = options.chunkStores ?? createChunkCache();

  scope.addEventListener('install', () => {
    // Nothing to cache; take over at once so the first download does not wait for a reload.
    void scope.skipWaiting();
  });
  // No clients.claim(): the scope is /__coffer_download__/ only, and this worker must never control
  // the app's pages (their uploads would pass through it).

  scope.addEventListener('message', (event) => {
    const data = event.data as SwDownloadControlMessage | null;
    if (data === null || typeof data !== 'object') return;
    switch (data.type) {
      case 'coffer-download:run':
        if (event.ports[0] !== undefined && typeof data.id === 'string' && !running.has(data.id))
          event.waitUntil(
            keepRunning(start(data, event.ports[0], data.fed === true ? event.ports[1] : undefined)),
          );
        break;
      case 'coffer-download:keepalive': {
        // The answer tells the page its download is alive here (a worker the browser stopped and
        // started again no longer knows the id).
        const download = typeof data.id === 'string' ? running.get(data.id) : undefined;
        if (download !== undefined) {
          download.page.post({ type: 'alive' });
          event.waitUntil(keepRunning(download));
        }
        break;
      }
      case 'coffer-download:status': {
        const port = event.ports[0];
        if (port !== undefined)
          event.waitUntil(
            Promise.all([streaming, chunkStores.kind()]).then(([value, chunks]) => {
              port.postMessage({ streaming: value, chunks } satisfies StatusAnswer);
              port.close();
            }),
          );
        break;
      }
    }
  });

  /** Until the download ends, or for {@link KEEP_RUNNING_MS} at most (the next keep-alive extends it). */
  const keepRunning = (download: RunningDownload): Promise<void> =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, KEEP_RUNNING_MS);
      void download.ended.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });

  const start = (message: RunDownloadMessage, port: MessagePort, feed?: MessagePort): RunningDownload => {
    const page = new PagePort(port);
    let markEnded = (): void => undefined;
    const download: RunningDownload = {
      page,
      ended: new Promise<void>((resolve) => {
        markEnded = resolve;
      }),
      fileName: message.fileName,
      size: message.job.size,
      frameWaiter: null,
    };
    running.set(message.id, download);
    const openSink = async (): Promise<SaveSink> => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      // Registered before the page is asked, so the navigation cannot arrive first.
      const opened = new Promise<SaveSink>((resolve, reject) => {
        const fail = (error: Error): void => {
          clearTimeout(timer);
          download.frameWaiter = null;
          reject(error);
        };
        timer = setTimeout(() => {
          fail(new TransferError('SAVE_UNAVAILABLE', DOWNLOAD_NOT_STARTED_TEXT));
        }, options.frameTimeoutMs ?? FRAME_TIMEOUT_MS);
        page.cancelled.signal.addEventListener(
          'abort',
          () => {
            fail(new TransferAbortedError(downloadMessages.aborted));
          },
          { once: true },
        );
        download.frameWaiter = () => {
          clearTimeout(timer);
          download.frameWaiter = null;
          const { stream, sink } = createStreamSink(() => {
            page.cancelled.abort();
          }, options);
          resolve(sink);
          return stream;
        };
      });
      // Awaited below once the page answered; until then a timeout must not count as unhandled.
      opened.catch(() => undefined);
      try {
        await page.call({ method: 'open-sink' });
      } catch (error) {
        clearTimeout(timer);
        download.frameWaiter = null;
        throw error;
      }
      return opened;
    };
    void runDownloadOnPort(
      message.job,
      page,
      openSink,
      options.openSliceBytes,
      chunkStores.forDownload(),
      feed === undefined ? undefined : chunkFeed(feed),
    )
      .then(
        () => {
          finish(message.id, null);
        },
        (error: unknown) => {
          finish(message.id, error);
        },
      )
      .finally(markEnded);
    return download;
  };

  const finish = (id: string, error: unknown): void => {
    const download = running.get(id);
    if (download === undefined) return;
    running.delete(id);
    download.page.post({ type: 'result', failure: error === null ? null : describeFailure(error) });
    download.page.close();
  };

  scope.addEventListener('fetch', (event) => {
    const url = new URL(event.request.url);
    if (url.origin !== scope.location.origin || !url.pathname.startsWith(DOWNLOAD_URL_PREFIX)) return;
    event.respondWith(respond(url));
  });

  /** The streamed download for a running id, or 404 if the id is unknown or already answered. */
  const respond = (url: URL): Response => {
    const id = decodeURIComponent(url.pathname.slice(DOWNLOAD_URL_PREFIX.length).split('/')[0] ?? '');
    const download = running.get(id);
    const answer = download?.frameWaiter;
    if (download === undefined || answer === null || answer === undefined) {
      return new Response('This download is no longer available.', {
        status: 404,
        headers: { 'Content-Type': 'text/plain; charset=utf-8' },
      });
    }
    const headers: Record<string, string> = {
      'Content-Type': 'application/octet-stream',
      'Content-Disposition': contentDisposition(download.fileName),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    };
    if (Number.isSafeInteger(download.size) && download.size >= 0)
      headers['Content-Length'] = String(download.size);
    return new Response(answer(), { headers });
  };
}

/** `attachment` with an ASCII fallback name and the exact UTF-8 name (RFC 6266 / RFC 5987). */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
