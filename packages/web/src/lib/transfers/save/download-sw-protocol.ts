/**
 * The protocol between the page and `public/download-sw.js` (plain JS, so it mirrors these types
 * in comments). One download = one MessageChannel:
 *
 * 1. page → SW (`ServiceWorker.postMessage`, port transferred): `register` with the file's
 *    name, size and type under a random id; SW → page on the port: `registered`.
 * 2. The page navigates a hidden iframe to `/__coffer_download__/<id>/<name>`; the SW answers that
 *    navigation with a streamed attachment Response and says `started`.
 * 3. Each `pull` of the SW is a credit for one message: the page answers it with exactly one `chunk`
 *    (the next slice, at most 8 MiB, of the plaintext; its buffer transferred), or `end`, or `error`
 *    (the browser then marks the download failed). The SW keeps up to 8 slices asked for or queued
 *    ahead of the browser's writer, so slices travel while the browser writes. The page can send `error` at any time.
 *    If the user cancels the download in the browser, the SW sends `cancelled`.
 */

/** URL path prefix the service worker answers; it leaves every other request alone. */
export const DOWNLOAD_URL_PREFIX = '/__coffer_download__/';
/** Path of the service worker script (copied from `public/` to the root of `dist`). */
export const DOWNLOAD_SW_URL = '/download-sw.js';

export interface RegisterDownloadMessage {
  readonly type: 'coffer-download:register';
  readonly id: string;
  readonly fileName: string;
  readonly size: number;
  readonly contentType: string;
}

/**
 * Fails a download the SW is streaming: the crypto worker it was handed to died, so nobody will send
 * `end` or `error` on its port (a browser download would stay "in progress" forever).
 */
export interface AbortDownloadMessage {
  readonly type: 'coffer-download:abort';
  readonly id: string;
}

/** Sent every few seconds while a download streams: messages keep an idle service worker alive. */
export interface KeepAliveMessage {
  readonly type: 'coffer-download:keepalive';
}

export type PageToSwPortMessage =
  | { readonly type: 'chunk'; readonly bytes: ArrayBuffer }
  | { readonly type: 'end' }
  | { readonly type: 'error'; readonly message: string };

export type SwToPageMessage =
  | { readonly type: 'registered' }
  | { readonly type: 'started' }
  | { readonly type: 'pull' }
  | { readonly type: 'cancelled' };

/** The URL the iframe opens; the name is only for the browser's benefit, the id finds the download. */
export function downloadUrl(id: string, fileName: string): string {
  return `${DOWNLOAD_URL_PREFIX}${encodeURIComponent(id)}/${encodeURIComponent(fileName)}`;
}
