/** What went wrong in a transfer; stable, safe to switch on. */
export type TransferErrorCode =
  /** The user (or logout, or navigation) cancelled. */
  | 'ABORTED'
  /** Encryption is not unlocked, or no key version is available. */
  | 'PRECONDITION'
  /** No answer from the server. */
  | 'NETWORK'
  /** A non-ok answer; the message is the spec's mapping of it. */
  | 'HTTP'
  /** A multipart part answer without an ETag. */
  | 'NO_ETAG'
  /** The file is stored unencrypted, or in a format this client does not read. */
  | 'NOT_ENCRYPTED'
  /** A shared file's key is missing, or the key does not decrypt with the user's private key. */
  | 'FILE_KEY'
  /** The browser offers no way to save a file this large, or saving could not start. */
  | 'SAVE_UNAVAILABLE'
  /** The metadata is not what its owner signed (issue 13): the file is not opened. */
  | 'SIGNATURE'
  /** Resuming an upload: the picked file is not the one the upload started from. */
  | 'DIFFERENT_FILE'
  /** Resuming an upload: the server no longer has it, or answers another file key than the one sent. */
  | 'NOT_RESUMABLE'
  /** Resuming an upload: another tab of this browser is running it (it holds the upload's Web Lock). */
  | 'RUNNING_ELSEWHERE';

/** A transfer failed; `message` is the user-facing text (spec section 8 where the spec has one). */
export class TransferError extends Error {
  /** HTTP status of the answer that caused it, if any. */
  readonly status: number | null;

  constructor(
    readonly code: TransferErrorCode,
    message: string,
    options: ErrorOptions & { status?: number } = {},
  ) {
    super(message, options);
    this.name = 'TransferError';
    this.status = options.status ?? null;
  }
}

/**
 * A transfer was cancelled: 'Upload was aborted' / 'Download was aborted'. `serverAbortError` is
 * set when the server-side abort of a multipart upload failed (so the screen can say
 * 'Error cancelling upload').
 */
export class TransferAbortedError extends TransferError {
  readonly serverAbortError: unknown;

  constructor(message: string, options: ErrorOptions & { serverAbortError?: unknown } = {}) {
    super('ABORTED', message, options);
    this.name = 'TransferAbortedError';
    this.serverAbortError = options.serverAbortError;
  }
}

/** True for the DOMException fetch, streams and pickers throw when aborted or cancelled. */
export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** A lost connection or a server-side hiccup (5xx, 429) is worth another try; a 4xx answer is not. */
export function isRetryableTransferError(error: unknown): boolean {
  if (!(error instanceof TransferError)) return false;
  if (error.code === 'NETWORK') return true;
  return error.code === 'HTTP' && error.status !== null && (error.status >= 500 || error.status === 429);
}

/** Waits `ms` before a retry; rejects with a {@link TransferAbortedError} (`abortedText`) on abort. */
export function waitBeforeRetry(ms: number, signal: AbortSignal, abortedText: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new TransferAbortedError(abortedText));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}
