import { MAX_FILES_PER_DROP, uploadMessages } from '@coffer/contracts';

/** What identifies a file in the upload list: the spec's "same name and size". */
export interface SelectableFile {
  readonly name: string;
  readonly size: number;
}

export interface SelectionResult<T> {
  /** Added to the list, in order. */
  readonly accepted: T[];
  /** Same name and size as a file already in the list (or earlier in the same drop): 'File already added'. */
  readonly duplicates: T[];
  /** Beyond the limit of files in the list: 'You can not upload any more files.' */
  readonly overLimit: T[];
}

export interface SelectionOptions {
  /** Most files the list may hold; default MAX_FILES_PER_DROP (10). */
  readonly max?: number;
  /** An upload runs: nothing can be added (spec section 5). */
  readonly busy?: boolean;
}

const sameFile = (a: SelectableFile, b: SelectableFile): boolean => a.name === b.name && a.size === b.size;

/**
 * Adds dropped files to the upload list (spec section 5): at most `max` files in the list, a file
 * with the same name and size as one already there is refused, nothing is added while uploading.
 */
export function addToSelection<T extends SelectableFile>(
  current: readonly SelectableFile[],
  incoming: readonly T[],
  options: SelectionOptions = {},
): SelectionResult<T> {
  const max = options.max ?? MAX_FILES_PER_DROP;
  if (options.busy === true) return { accepted: [], duplicates: [], overLimit: [...incoming] };
  const accepted: T[] = [];
  const duplicates: T[] = [];
  const overLimit: T[] = [];
  for (const file of incoming) {
    if (current.some((existing) => sameFile(existing, file)) || accepted.some((a) => sameFile(a, file))) {
      duplicates.push(file);
    } else if (current.length + accepted.length >= max) {
      overLimit.push(file);
    } else {
      accepted.push(file);
    }
  }
  return { accepted, duplicates, overLimit };
}

/** The snackbars a selection result calls for (warning colour), without repeats. */
export function selectionMessages(result: SelectionResult<unknown>): string[] {
  const messages: string[] = [];
  if (result.duplicates.length > 0) messages.push(uploadMessages.fileAlreadyAdded);
  if (result.overLimit.length > 0) messages.push(uploadMessages.tooManyFiles);
  return messages;
}

/** Where a file of the upload list stands (spec section 4, "Upload file item on the upload screen"). */
export type UploadRowPhase =
  'ready' | 'queued' | 'processing' | 'uploading' | 'complete' | 'failed' | 'aborted';

export interface UploadRowState {
  readonly phase: UploadRowPhase;
  /** Colour of the progress bar: grey while queued, blue while processing, green with a percentage. */
  readonly color: 'gray' | 'blue' | 'green' | 'red';
  /** The badge next to the name ('Queued', 'Processing'), or null. */
  readonly badge: string | null;
  /** Value of the bar, 0–100. A queued or processing bar is full and striped, like a waiting indicator. */
  readonly barValue: number;
  /** The percentage shown on the bar while uploading ('42.5%'), else null. */
  readonly percentLabel: string | null;
  /** The line under the name: the engine's status text or the error. */
  readonly text: string;
  /** Queued or processing: cancelling aborts the transfer. */
  readonly active: boolean;
}

/** The transfer fields this needs (a TransferItem fits). */
export interface UploadProgressLike {
  readonly status: 'queued' | 'processing' | 'complete' | 'failed' | 'aborted';
  readonly progress: number;
  readonly statusText: string;
  readonly error: string | null;
}

/** Ours: the state of an added file before Upload Files is pressed. */
export const READY_TEXT = 'Ready to upload';

/**
 * The row of an upload-list file: `transfer` is its running upload (undefined before Upload Files),
 * `error` the reason a previous attempt failed.
 */
export function uploadRowState(
  transfer: UploadProgressLike | undefined,
  error: string | null = null,
): UploadRowState {
  if (transfer === undefined) {
    return error === null
      ? {
          phase: 'ready',
          color: 'gray',
          badge: null,
          barValue: 0,
          percentLabel: null,
          text: READY_TEXT,
          active: false,
        }
      : {
          phase: 'failed',
          color: 'red',
          badge: null,
          barValue: 100,
          percentLabel: null,
          text: error,
          active: false,
        };
  }
  switch (transfer.status) {
    case 'queued':
      return {
        phase: 'queued',
        color: 'gray',
        badge: uploadMessages.queuedBadge,
        barValue: 100,
        percentLabel: null,
        text: transfer.statusText,
        active: true,
      };
    case 'processing':
      if (transfer.progress <= 0) {
        return {
          phase: 'processing',
          color: 'blue',
          badge: uploadMessages.processingBadge,
          barValue: 100,
          percentLabel: null,
          text: transfer.statusText,
          active: true,
        };
      }
      return {
        phase: 'uploading',
        color: 'green',
        badge: null,
        barValue: transfer.progress,
        percentLabel: `${transfer.progress}%`,
        text: transfer.statusText,
        active: true,
      };
    case 'complete':
      return {
        phase: 'complete',
        color: 'green',
        badge: null,
        barValue: 100,
        percentLabel: '100%',
        text: transfer.statusText,
        active: false,
      };
    case 'failed':
      return {
        phase: 'failed',
        color: 'red',
        badge: null,
        barValue: 100,
        percentLabel: null,
        text: transfer.error ?? uploadMessages.defaultError,
        active: false,
      };
    case 'aborted':
      return {
        phase: 'aborted',
        color: 'gray',
        badge: null,
        barValue: 0,
        percentLabel: null,
        text: transfer.statusText,
        active: false,
      };
  }
}
