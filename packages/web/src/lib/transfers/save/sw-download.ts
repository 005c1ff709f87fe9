import { downloadMessages } from '@coffer/contracts';
import { errorFromFailure } from '../../crypto-worker/chunk-cipher';
import { pageSideOfDownload } from '../../crypto-worker/worker-chunk-cipher';
import type { DownloadCall, DownloadPageMessage, DownloadWorkerMessage } from '../../crypto-worker/protocol';
import type { DownloadHost, DownloadJob } from '../download/download-run';
import { TransferError } from '../transfer-errors';
import { downloadUrl, type SwDownloadControlMessage } from './download-sw-protocol';
import type { SaveFileInfo } from './save-sink';
import { activeDownloadWorker, openInHiddenFrame } from './sw-registration';

/** The part of a ServiceWorker the page talks to. */
export interface DownloadServiceWorkerLike {
  postMessage(message: SwDownloadControlMessage, transfer?: Transferable[]): void;
}

export interface ServiceWorkerDownloadOptions {
  readonly getWorker?: () => Promise<DownloadServiceWorkerLike>;
  /** Opens the download URL and returns a function that removes what it opened. */
  readonly openUrl?: (url: string) => () => void;
  readonly keepAliveIntervalMs?: number;
  /** Keep-alives left unanswered before the download counts as lost (the browser stopped the worker). */
  readonly missedKeepAlives?: number;
  /** How long the iframe outlives the download. */
  readonly cleanUpDelayMs?: number;
  /** The service worker's end of a feed from the crypto worker (`download-feed.ts`), transferred. */
  readonly feed?: MessagePort;
}

const KEEP_ALIVE_INTERVAL_MS = 10_000;
const MISSED_KEEP_ALIVES = 3;
/** The iframe outlives the response by a little; the browser's download no longer needs it. */
const REMOVE_FRAME_AFTER_MS = 5_000;

/**
 * Runs a download in the download service worker (`src/sw/download-service-worker.ts`): it decrypts
 * and streams the verified plaintext as the browser download the hidden iframe opens, so no byte of
 * plaintext passes through the page or another worker. The ciphertext it takes from `options.feed`
 * (verified chunk files of the crypto worker, `download-feed.ts`) or, without one, fetches and
 * verifies itself. The page answers its calls (fresh auth
 * headers before every request, `open-sink`: open the iframe) and shows its progress; cancelling
 * `host.signal` stops it there. Every `keepAliveIntervalMs` the page posts the worker a keep-alive
 * (messages keep a service worker running); if `missedKeepAlives` in a row go unanswered, the worker
 * was stopped by the browser and the download fails instead of showing progress forever.
 * @throws what the pipeline threw there (`IntegrityError`, `TransferError`, `TransferAbortedError`).
 */
export async function runDownloadInServiceWorker(
  job: DownloadJob,
  host: DownloadHost,
  info: SaveFileInfo,
  options: ServiceWorkerDownloadOptions = {},
): Promise<void> {
  const worker = await (options.getWorker ?? activeDownloadWorker)();
  const id = crypto.randomUUID();
  const channel = new MessageChannel();
  const port = channel.port1;
  let removeFrame: (() => void) | null = null;
  let unanswered = 0;
  /** The worker sent its result (set in the port's handler). */
  const outcome = { settled: false };
  const send = (message: DownloadPageMessage): void => {
    port.postMessage(message);
  };
  const run = async (call: DownloadCall): Promise<unknown> => {
    switch (call.method) {
      case 'headers':
        return host.headers();
      case 'open-sink':
        removeFrame ??= (options.openUrl ?? openInHiddenFrame)(downloadUrl(id, info.fileName));
        return null;
      case 'write':
      case 'close':
      case 'abort':
        // Page-sink calls of the crypto worker's Blob fallback: the service worker writes its own stream.
        throw new Error(`Unexpected call ${call.method}`);
    }
  };
  const cancel = (): void => {
    send({ type: 'cancel' });
  };
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      port.onmessage = (event: MessageEvent<DownloadWorkerMessage>) => {
        unanswered = 0;
        const message = event.data;
        pageSideOfDownload(
          message,
          host.progress,
          async (call) => ({ value: await run(call), transfer: [] }),
          port,
        );
        if (message.type === 'result') {
          outcome.settled = true;
          if (message.failure === null) resolve();
          else reject(errorFromFailure(message.failure));
        }
      };
      keepAlive = setInterval(() => {
        if (++unanswered > (options.missedKeepAlives ?? MISSED_KEEP_ALIVES)) {
          reject(new TransferError('NETWORK', downloadMessages.defaultError));
          return;
        }
        worker.postMessage({ type: 'coffer-download:keepalive', id });
      }, options.keepAliveIntervalMs ?? KEEP_ALIVE_INTERVAL_MS);
      host.signal.addEventListener('abort', cancel, { once: true });
      if (host.signal.aborted) cancel();
      const { feed } = options;
      worker.postMessage(
        {
          type: 'coffer-download:run',
          id,
          fileName: info.fileName,
          job,
          ...(feed === undefined ? {} : { fed: true }),
        },
        feed === undefined ? [channel.port2] : [channel.port2, feed],
      );
    });
  } finally {
    clearInterval(keepAlive);
    // Without a result (the worker went silent): whatever still runs there stops.
    if (!outcome.settled) cancel();
    host.signal.removeEventListener('abort', cancel);
    port.onmessage = null;
    port.close();
    // Assigned in a callback: the compiler cannot see it may be set.
    const remove = removeFrame as (() => void) | null;
    setTimeout(() => remove?.(), options.cleanUpDelayMs ?? REMOVE_FRAME_AFTER_MS);
  }
}
