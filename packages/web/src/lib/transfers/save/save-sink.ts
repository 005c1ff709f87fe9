/** Where a download's plaintext goes, one verified chunk at a time. */
export interface SaveSink {
  /**
   * Writes the next verified plaintext chunk; resolves when the sink can take another
   * (backpressure). The sink owns `bytes` from then on: it hands them on in slices of
   * `SLICE_BYTES` (no long copy on the main thread) and frees the buffer as soon as it is done.
   */
  write(bytes: Uint8Array<ArrayBuffer>): Promise<void>;
  /** All chunks written and verified: finish the file. */
  close(): Promise<void>;
  /** Give up: no file may be left looking complete. Never throws. */
  abort(reason: unknown): Promise<void>;
  /**
   * Moves the writing to the crypto worker, where the download runs: what the worker needs to
   * write itself (see {@link SinkTarget}) and what the page still does at the end. Sinks without
   * it (the Blob fallback) are written from the page, the worker posting it the plaintext.
   * After a hand-off the page calls only `settle`, never write, close or abort.
   */
  handOff?: () => SinkHandOff;
}

/** What a worker writes to instead of the page: the file handle the picker returned (its `createWritable()` works in a worker). */
export interface SinkTarget {
  readonly kind: 'file';
  readonly handle: FileSystemFileHandle;
  readonly createdEmpty: boolean;
}

export interface SinkHandOff {
  readonly target: SinkTarget;
  readonly transfer: Transferable[];
  /** The page's part of the ending (iframe, keep-alive, an empty picked file), after the worker's. */
  settle(outcome: 'closed' | 'aborted'): Promise<void>;
}

export interface SaveFileInfo {
  readonly fileName: string;
  /** Plaintext size in bytes (the service worker announces it as Content-Length). */
  readonly size: number;
  readonly contentType: string;
}

/**
 * How a download is saved:
 * - `fs-access`: the File System Access API (`showSaveFilePicker`), streamed to disk;
 * - `service-worker`: the app's own service worker streams it as a browser download;
 * - `blob`: collected in a Blob, for files up to 100 MB only;
 * - `auto`: the first of those the browser supports (blob only for small files).
 */
export type SaveMethod = 'fs-access' | 'service-worker' | 'blob' | 'auto';
export type ResolvedSaveMethod = Exclude<SaveMethod, 'auto'>;

export const saveMethods: readonly SaveMethod[] = ['fs-access', 'service-worker', 'blob', 'auto'];

export function isSaveMethod(value: unknown): value is SaveMethod {
  return typeof value === 'string' && (saveMethods as readonly string[]).includes(value);
}

/** Opens a sink for a resolved method; tests pass their own. */
export type SaveSinkOpener = (method: ResolvedSaveMethod, info: SaveFileInfo) => Promise<SaveSink>;
