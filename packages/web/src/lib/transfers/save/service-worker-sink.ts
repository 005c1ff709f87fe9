import { downloadMessages } from '@coffer/contracts';
import { releaseBuffer, SLICE_BYTES, slicesOf } from '../buffers';
import { TransferAbortedError, TransferError } from '../transfer-errors';
import {
  DOWNLOAD_SW_URL,
  DOWNLOAD_URL_PREFIX,
  downloadUrl,
  type AbortDownloadMessage,
  type KeepAliveMessage,
  type PageToSwPortMessage,
  type RegisterDownloadMessage,
  type SwToPageMessage,
} from './download-sw-protocol';
import type { SaveFileInfo, SaveSink } from './save-sink';

/** The part of a ServiceWorker the sink talks to. */
export interface DownloadWorkerLike {
  postMessage(
    message: RegisterDownloadMessage | KeepAliveMessage | AbortDownloadMessage,
    transfer?: Transferable[],
  ): void;
}

export interface ServiceWorkerSinkOptions {
  /** The active download service worker; defaults to registering `/download-sw.js`. */
  readonly getWorker?: () => Promise<DownloadWorkerLike>;
  /** Opens the download URL and returns a function that removes what it opened. */
  readonly openUrl?: (url: string) => () => void;
  /** How long the service worker may take to answer; then the download fails. */
  readonly startTimeoutMs?: number;
  readonly keepAliveIntervalMs?: number;
  /** How long the iframe and the port outlive the download. */
  readonly cleanUpDelayMs?: number;
  /** Bytes per message to the service worker (tests use small ones). */
  readonly sliceBytes?: number;
}

/** Ours: the service worker did not take the download (e.g. a hard reload bypassed it). */
export const DOWNLOAD_NOT_STARTED_TEXT =
  'The download could not be started. Please reload the page and try again.';

const START_TIMEOUT_MS = 30_000;
const KEEP_ALIVE_INTERVAL_MS = 10_000;
/** The iframe outlives the response by a little; the browser's download no longer needs it. */
const REMOVE_FRAME_AFTER_MS = 5_000;

let registration: Promise<ServiceWorkerRegistration> | null = null;

/**
 * Registers the app's download service worker with the narrowest scope that works:
 * `/__coffer_download__/`, the URLs it answers. The app's pages are never controlled by it, so
 * uploads and API calls never pass through a worker (a page-wide worker kept every 95 MiB upload part
 * alive in the browser until the worker was collected). A worker registered by an older version at
 * `/` is removed. Safe to call early; retried on the next call if it failed.
 */
export function registerDownloadServiceWorker(): Promise<ServiceWorkerRegistration> {
  registration ??= removePageWideWorker()
    .then(() => navigator.serviceWorker.register(DOWNLOAD_SW_URL, { scope: DOWNLOAD_URL_PREFIX }))
    .catch((error: unknown) => {
      registration = null;
      throw error;
    });
  return registration;
}

async function removePageWideWorker(): Promise<void> {
  const pageWide = `${location.origin}/`;
  const all = await navigator.serviceWorker.getRegistrations();
  await Promise.all(
    all
      .filter((r) => r.scope === pageWide && (r.active?.scriptURL.endsWith(DOWNLOAD_SW_URL) ?? false))
      .map((r) => r.unregister()),
  );
}

/** The registration's active worker, waiting for the first install to activate. */
export async function activeDownloadWorker(): Promise<ServiceWorker> {
  const registered = await registerDownloadServiceWorker();
  if (registered.active !== null) return registered.active;
  const pending = registered.installing ?? registered.waiting;
  if (pending === null) throw new TransferError('SAVE_UNAVAILABLE', DOWNLOAD_NOT_STARTED_TEXT);
  return new Promise((resolve, reject) => {
    const onChange = (): void => {
      if (pending.state === 'activated') {
        pending.removeEventListener('statechange', onChange);
        resolve(pending);
      } else if (pending.state === 'redundant') {
        pending.removeEventListener('statechange', onChange);
        reject(new TransferError('SAVE_UNAVAILABLE', DOWNLOAD_NOT_STARTED_TEXT));
      }
    };
    pending.addEventListener('statechange', onChange);
    onChange();
  });
}

/** Navigates a hidden iframe to the URL; the service worker's attachment answer becomes a download. */
export function openInHiddenFrame(url: string): () => void {
  const frame = document.createElement('iframe');
  frame.hidden = true;
  frame.src = url;
  document.body.append(frame);
  return () => {
    frame.remove();
  };
}

/**
 * Streams the download through the app's service worker, so the browser writes it to disk as a
 * normal download of any size. The page sends a slice of a chunk only for a credit (`pull`) of the
 * service worker, which keeps at most a few slices ahead of the browser's writer. `abort` errors the stream, and the
 * browser marks the download failed instead of keeping a complete-looking file.
 */
export async function openServiceWorkerSink(
  info: SaveFileInfo,
  options: ServiceWorkerSinkOptions = {},
): Promise<SaveSink> {
  const worker = await (options.getWorker ?? activeDownloadWorker)();
  const channel = new MessageChannel();
  const port = new PortState(channel.port1);
  const startTimeoutMs = options.startTimeoutMs ?? START_TIMEOUT_MS;
  const sliceBytes = options.sliceBytes ?? SLICE_BYTES;
  const id = crypto.randomUUID();

  worker.postMessage(
    {
      type: 'coffer-download:register',
      id,
      fileName: info.fileName,
      size: info.size,
      contentType: info.contentType,
    },
    [channel.port2],
  );
  let removeFrame: (() => void) | null = null;
  const keepAlive = setInterval(() => {
    worker.postMessage({ type: 'coffer-download:keepalive' });
  }, options.keepAliveIntervalMs ?? KEEP_ALIVE_INTERVAL_MS);
  const cleanUp = (delayMs: number): void => {
    clearInterval(keepAlive);
    const remove = removeFrame;
    removeFrame = null;
    setTimeout(() => {
      remove?.();
      port.close();
    }, delayMs);
  };

  try {
    await port.until(() => port.registered, startTimeoutMs);
    removeFrame = (options.openUrl ?? openInHiddenFrame)(downloadUrl(id, info.fileName));
    await port.until(() => port.started, startTimeoutMs);
  } catch (error) {
    port.send({ type: 'error', message: 'not started' });
    cleanUp(0);
    throw error;
  }

  const cleanUpDelayMs = options.cleanUpDelayMs ?? REMOVE_FRAME_AFTER_MS;
  return {
    ...portSink(port, sliceBytes, () => {
      cleanUp(cleanUpDelayMs);
    }),
    handOff() {
      // Messages the page has not dispatched yet travel with the port; the pulls it already
      // counted go along as a number.
      const pulls = port.detach();
      return {
        // The worker posts smaller slices than the page would (see WORKER_SLICE_BYTES).
        target: {
          kind: 'port',
          port: channel.port1,
          pulls,
          sliceBytes: Math.min(sliceBytes, WORKER_SLICE_BYTES),
        },
        transfer: [channel.port1],
        settle(outcome) {
          // Normally the worker already sent `error`; if it died first, this is the only word the
          // service worker gets (an abort after `end` or `error` is a no-op there).
          if (outcome === 'aborted') worker.postMessage({ type: 'coffer-download:abort', id });
          cleanUp(cleanUpDelayMs);
          return Promise.resolve();
        },
      };
    },
  };
}

/**
 * Slice size when the crypto worker writes: each slice is copied into a buffer of its own to be
 * transferred, and Chromium's allocator gives buffers above ~1 MiB fresh pages every time (a page
 * fault per 4 KiB: ~2,000 per 8 MiB slice, about 17 µs each on the benchmark machine) while it
 * recycles smaller ones. The page used 8 MiB to keep its message count low; the worker has no
 * frames to keep.
 */
export const WORKER_SLICE_BYTES = 512 * 1024;

/**
 * The crypto worker's end of a download the page handed off (`SaveSink.handOff`): the same
 * pull-and-slice protocol as on the page, from the worker's thread.
 */
export function openPortTargetSink(port: MessagePort, pulls: number, sliceBytes: number): SaveSink {
  const state = new PortState(port);
  state.credits = pulls;
  return portSink(state, sliceBytes, () => {
    setTimeout(() => {
      state.close();
    }, REMOVE_FRAME_AFTER_MS);
  });
}

/** Writes plaintext to the service worker one slice per pull; `end` runs once after close or abort. */
function portSink(port: PortState, sliceBytes: number, end: () => void): SaveSink {
  return {
    async write(bytes) {
      // One slice per pull: posting a whole 95 MiB chunk to the worker's process would copy it in
      // one step (100+ ms on the page's main thread); a slice takes a few ms.
      for (const slice of slicesOf(bytes, sliceBytes)) {
        await port.until(() => port.credits > 0);
        port.credits--;
        // A copy of its own, so it can be transferred (the chunk's buffer stays whole until freed).
        const piece = slice.slice().buffer;
        port.send({ type: 'chunk', bytes: piece }, [piece]);
      }
      releaseBuffer(bytes.buffer);
    },
    async close() {
      // `end` is a message like a slice: it waits for a credit, and the service worker closes the
      // stream behind the slices it still holds (the browser writes those, then completes the file).
      await port.until(() => port.credits > 0);
      port.send({ type: 'end' });
      end();
    },
    abort(reason) {
      if (!port.cancelled)
        port.send({ type: 'error', message: reason instanceof Error ? reason.message : 'aborted' });
      end();
      return Promise.resolve();
    },
  };
}

/** The page's end of one download's MessageChannel. */
class PortState {
  credits = 0;
  registered = false;
  started = false;
  cancelled = false;
  /** The page closed its end (download finished or aborted): nothing will wake a waiter again. */
  closed = false;
  readonly #waiters = new Set<() => void>();

  constructor(readonly port: MessagePort) {
    port.onmessage = (event: MessageEvent<SwToPageMessage>) => {
      switch (event.data.type) {
        case 'registered':
          this.registered = true;
          break;
        case 'started':
          this.started = true;
          break;
        case 'pull':
          this.credits++;
          break;
        case 'cancelled':
          this.cancelled = true;
          break;
      }
      for (const wake of [...this.#waiters]) wake();
    };
  }

  send(message: PageToSwPortMessage, transfer: Transferable[] = []): void {
    this.port.postMessage(message, transfer);
  }

  /**
   * Waits until `condition` holds.
   * @throws {TransferAbortedError} the user cancelled the download in the browser.
   * @throws {TransferError} SAVE_UNAVAILABLE after `timeoutMs` without it.
   */
  async until(condition: () => boolean, timeoutMs?: number): Promise<void> {
    const deadline = timeoutMs === undefined ? null : Date.now() + timeoutMs;
    while (!condition()) {
      if (this.cancelled || this.closed) throw new TransferAbortedError(downloadMessages.aborted);
      const remaining = deadline === null ? null : deadline - Date.now();
      if (remaining !== null && remaining <= 0)
        throw new TransferError('SAVE_UNAVAILABLE', DOWNLOAD_NOT_STARTED_TEXT);
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          clearTimeout(timer);
          this.#waiters.delete(wake);
          resolve();
        };
        const timer = remaining === null ? undefined : setTimeout(wake, remaining);
        this.#waiters.add(wake);
      });
    }
  }

  /** Stops listening (the port is about to be transferred); returns the pulls not answered yet. */
  detach(): number {
    this.port.onmessage = null;
    return this.credits;
  }

  close(): void {
    this.closed = true;
    this.port.onmessage = null;
    this.port.close();
    // A write still waiting for a pull ends now instead of hanging with its chunk.
    for (const wake of [...this.#waiters]) wake();
  }
}
