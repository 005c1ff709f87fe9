/**
 * A download whose bytes the PAGE makes (a ZIP of several files, issue 31), saved through the
 * download service worker like a single file: the page transfers a ReadableStream to the worker
 * (`coffer-download:stream`), opens `streamDownloadUrl(id, name)` in a hidden iframe, and the worker
 * answers that navigation with the stream as an attachment. `coffer-download:stream-keepalive`
 * every few seconds keeps the worker running until the stream ends.
 */

/** Under the worker's scope (`/__coffer_download__/`), apart from single-file downloads. */
export const STREAM_DOWNLOAD_PREFIX = '/__coffer_download__/stream/';

export interface StreamDownloadMessage {
  readonly type: 'coffer-download:stream';
  readonly id: string;
  readonly fileName: string;
  readonly stream: ReadableStream<Uint8Array>;
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
