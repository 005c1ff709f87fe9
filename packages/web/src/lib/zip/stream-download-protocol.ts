/**
 * A download whose bytes the PAGE makes (a ZIP of several files, issue 31), saved through the
 * download service worker like a single file: the page transfers a ReadableStream to the worker
 * (`coffer-download:stream`), opens `streamDownloadUrl(id, name)` in a hidden iframe, and the worker
 * answers that navigation with the stream as an attachment. `coffer-download:stream-keepalive`
 * every few seconds keeps the worker running until the stream ends.
 *
 * The stream message carries a MessagePort besides the stream: the worker answers
 * {@link StreamRegisteredAnswer} on it once the stream is registered under its id, and the page
 * opens the iframe only then. A message and a navigation reach the worker as separate events, in no
 * promised order: an iframe opened right after the post was once answered 404 (the URL not yet known).
 */

/** Under the worker's scope (`/__coffer_download__/`), apart from single-file downloads. */
export const STREAM_DOWNLOAD_PREFIX = '/__coffer_download__/stream/';

export interface StreamDownloadMessage {
  readonly type: 'coffer-download:stream';
  readonly id: string;
  readonly fileName: string;
  readonly stream: ReadableStream<Uint8Array>;
}

/** The worker's answer on the stream message's port: the URL is registered, the iframe may open. */
export interface StreamRegisteredAnswer {
  readonly type: 'coffer-download:stream-registered';
  readonly id: string;
}

export interface StreamKeepAliveMessage {
  readonly type: 'coffer-download:stream-keepalive';
  readonly id: string;
}

export type StreamDownloadControlMessage = StreamDownloadMessage | StreamKeepAliveMessage;

/** The URL the iframe opens; the name is for the browser, the id finds the stream. */
export function streamDownloadUrl(id: string, fileName: string): string {
  return `${STREAM_DOWNLOAD_PREFIX}${encodeURIComponent(id)}/${encodeURIComponent(fileName)}`;
}
