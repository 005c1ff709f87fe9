import { openBlobSink } from '../transfers/save/blob-sink';
import { openFsAccessSink } from '../transfers/save/fs-access-sink';
import type { ResolvedSaveMethod, SaveSink } from '../transfers/save/save-sink';
import { activeDownloadWorker, openInHiddenFrame } from '../transfers/save/sw-registration';
import { createStreamSink } from '../transfers/save/stream-sink';
import { DOWNLOAD_NOT_STARTED_TEXT } from '../transfers/save/download-sw-protocol';
import { TransferError } from '../transfers/transfer-errors';
import {
  streamDownloadUrl,
  type StreamDownloadControlMessage,
  type StreamRegisteredAnswer,
} from './stream-download-protocol';

const KEEP_ALIVE_INTERVAL_MS = 10_000;
/** The iframe outlives the end of the stream by a little; the browser's download no longer needs it. */
const REMOVE_FRAME_AFTER_MS = 5_000;

/**
 * Where a ZIP goes, by the same save methods as a single download: the File System Access
 * writable (the picker opens at once: call this inside the click), the download service worker
 * (a stream this page fills, transferred to the worker, which answers the hidden iframe's URL with
 * it: an ordinary browser download), or a Blob for small archives.
 */
export function openZipSink(method: ResolvedSaveMethod, fileName: string, size: number): Promise<SaveSink> {
  const info = { fileName, size, contentType: 'application/zip' };
  switch (method) {
    case 'fs-access':
      return openFsAccessSink(info);
    case 'blob':
      return openBlobSink(info);
    case 'service-worker':
      return openServiceWorkerZipSink(fileName);
  }
}

export interface ServiceWorkerZipSinkOptions {
  readonly getWorker?: () => Promise<{
    postMessage(message: StreamDownloadControlMessage, transfer: Transferable[]): void;
  }>;
  /** Opens the download URL and returns a function that removes what it opened. */
  readonly openUrl?: (url: string) => () => void;
  /** How long the worker may take to register the stream before the download counts as not started. */
  readonly registerTimeoutMs?: number;
}

/** The worker answers at once; this only bounds a worker that went away. */
const REGISTER_TIMEOUT_MS = 30_000;

/**
 * The ZIP's stream, transferred to the download service worker; the hidden iframe opens its URL
 * only once the worker answered that it registered the stream (a navigation sent with the message
 * could reach the worker first and be answered 404).
 * @throws {TransferError} `SAVE_UNAVAILABLE` when the worker does not answer.
 */
export async function openServiceWorkerZipSink(
  fileName: string,
  options: ServiceWorkerZipSinkOptions = {},
): Promise<SaveSink> {
  const worker = await (options.getWorker ?? activeDownloadWorker)();
  const id = crypto.randomUUID();
  let cancelledInBrowser = false;
  const { stream, sink } = createStreamSink(() => {
    cancelledInBrowser = true;
  });
  const post = (message: StreamDownloadControlMessage, transfer: Transferable[] = []): void => {
    worker.postMessage(message, transfer);
  };
  const answer = new MessageChannel();
  const registered = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new TransferError('SAVE_UNAVAILABLE', DOWNLOAD_NOT_STARTED_TEXT));
    }, options.registerTimeoutMs ?? REGISTER_TIMEOUT_MS);
    answer.port1.onmessage = (event: MessageEvent<StreamRegisteredAnswer | null>) => {
      if (event.data?.id !== id) return;
      clearTimeout(timer);
      resolve();
    };
  });
  post({ type: 'coffer-download:stream', id, fileName, stream }, [stream, answer.port2]);
  try {
    await registered;
  } finally {
    answer.port1.onmessage = null;
    answer.port1.close();
  }
  const removeFrame = (options.openUrl ?? openInHiddenFrame)(streamDownloadUrl(id, fileName));
  const keepAlive = setInterval(() => {
    post({ type: 'coffer-download:stream-keepalive', id });
  }, KEEP_ALIVE_INTERVAL_MS);
  const end = (): void => {
    clearInterval(keepAlive);
    setTimeout(removeFrame, REMOVE_FRAME_AFTER_MS);
  };
  return {
    write: (bytes) => sink.write(bytes),
    async close() {
      try {
        await sink.close();
      } finally {
        end();
      }
    },
    async abort(reason) {
      end();
      if (!cancelledInBrowser) await sink.abort(reason);
    },
  };
}
