import { downloadMessages } from '@coffer/contracts';
import { TransferAbortedError } from './transfer-errors';

/**
 * A download's own abort, below the caller's signal: the first failure of any of its parts (or
 * the caller's abort) aborts `signal`, so the other parts stop at once (e.g. the network read),
 * and is kept as `failure`: the error to report, not the abort it caused elsewhere.
 */
export interface DownloadFailure {
  readonly signal: AbortSignal;
  /** The first failure, or null. */
  readonly failure: unknown;
  readonly fail: (error: unknown) => void;
  readonly abort: () => void;
  /** Stops listening to the caller's signal. */
  readonly dispose: () => void;
}

export function downloadFailure(outer: AbortSignal): DownloadFailure {
  const internal = new AbortController();
  let failure: unknown = null;
  const fail = (error: unknown): void => {
    failure ??= error;
    internal.abort();
  };
  const onOuterAbort = (): void => {
    fail(new TransferAbortedError(downloadMessages.aborted));
  };
  if (outer.aborted) onOuterAbort();
  outer.addEventListener('abort', onOuterAbort, { once: true });
  return {
    signal: internal.signal,
    get failure() {
      return failure;
    },
    fail,
    abort: () => {
      internal.abort();
    },
    dispose: () => {
      outer.removeEventListener('abort', onOuterAbort);
    },
  };
}
