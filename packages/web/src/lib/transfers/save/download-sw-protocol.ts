import type { DownloadJob } from '../download/download-run';

/**
 * The page and the download service worker (`src/sw/download-service-worker.ts`, served as
 * `/download-sw.js`). One download = one MessageChannel:
 *
 * 1. page → SW (`ServiceWorker.postMessage`, port transferred): `run` with the job (the unwrapped,
 *    non-extractable file key, size, chunk size, content path, retry budget) under a random id.
 * 2. SW → page on the port, as the crypto worker's downloads do (`DownloadWorkerMessage`): progress,
 *    and `call`s the page answers (`DownloadPageMessage`): fresh auth headers before each request,
 *    and `open-sink` once the first answer arrived: the page navigates a hidden iframe to
 *    `/__coffer_download__/<id>/<name>`, and the SW answers that navigation with the streamed
 *    attachment (the browser's download).
 * 3. The page posts `keepalive` with the id every few seconds (messages keep the SW running); the SW
 *    answers `alive` on the port. The page may send `cancel`; the SW ends with one `result`.
 */

/** URL path prefix the service worker answers; it leaves every other request alone. */
export const DOWNLOAD_URL_PREFIX = '/__coffer_download__/';
/** Path of the service worker script (built by the Vite config to the root of `dist`). */
export const DOWNLOAD_SW_PATH = '/download-sw.js';
/**
 * The version of the messages between the page and the service worker, in the script's URL. A page
 * that speaks a new version registers a new script URL, and the browser installs the new worker at
 * once; with the same URL it would keep the worker an older version of the app installed (which
 * ignores the new messages) until its next update check. Bump it with every change of the messages
 * (2: downloads run in the service worker, session 10; 3: `status`, issue 32; 4: page-made
 * streams for ZIPs, `lib/zip/stream-download-protocol.ts`, issue 31; 5: a page-made stream is
 * opened only once the worker answered that it registered it; 6: `fed`, the feed of verified chunks
 * from the crypto worker as a second port, session 19).
 */
export const DOWNLOAD_SW_PROTOCOL = 6;
export const DOWNLOAD_SW_URL = `${DOWNLOAD_SW_PATH}?protocol=${String(DOWNLOAD_SW_PROTOCOL)}`;

/**
 * Sent every few seconds while a download runs: it keeps the service worker running, and the worker
 * running download `id` answers `alive` on its port.
 */
export interface KeepAliveMessage {
  readonly type: 'coffer-download:keepalive';
  readonly id: string;
}

/**
 * Runs a whole download in the service worker (`src/sw/download-service-worker.ts`), port
 * transferred. On the port, the crypto worker's download protocol (`DownloadWorkerMessage`,
 * `DownloadPageMessage`): progress, `call`s for auth headers and for `open-sink` (the page then opens
 * `downloadUrl(id, fileName)` in a hidden iframe), `alive` answers to keep-alives, and one `result`.
 */
export interface RunDownloadMessage {
  readonly type: 'coffer-download:run';
  readonly id: string;
  readonly fileName: string;
  readonly job: DownloadJob;
  /**
   * True when a second port follows the page's: the feed of verified chunks from the crypto worker
   * (`download-feed.ts`), which then fetches and verifies while this worker decrypts and saves.
   */
  readonly fed?: boolean;
}

/**
 * Asks how the service worker opens chunks, port transferred: it answers `StatusAnswer` on the port
 * once its streaming AES-GCM self-test has run (the browser benchmark reads it).
 */
export interface StatusMessage {
  readonly type: 'coffer-download:status';
}

/** The answer to {@link StatusMessage}: true where chunks are verified and decrypted slice by slice. */
export interface StatusAnswer {
  readonly streaming: boolean;
  /** Where its downloads keep a chunk between verify and decrypt (`chunk-store.ts`). */
  readonly chunks: 'files' | 'cache' | 'blobs';
}

/** What the page posts to the service worker itself (`ServiceWorker.postMessage`). */
export type SwDownloadControlMessage = RunDownloadMessage | KeepAliveMessage | StatusMessage;

/**
 * Ours: the download service worker could not be installed, or the download's URL did not reach it
 * (e.g. a hard reload bypasses service workers for that page).
 */
export const DOWNLOAD_NOT_STARTED_TEXT =
  'The download could not be started. Please reload the page and try again.';

/** The URL the iframe opens; the name is only for the browser's benefit, the id finds the download. */
export function downloadUrl(id: string, fileName: string): string {
  return `${DOWNLOAD_URL_PREFIX}${encodeURIComponent(id)}/${encodeURIComponent(fileName)}`;
}
