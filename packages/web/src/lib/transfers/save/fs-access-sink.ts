import { downloadMessages } from '@coffer/contracts';
import { releaseBuffer, slicesOf } from '../buffers';
import { TransferAbortedError, isAbortError } from '../transfer-errors';
import type { SaveFileInfo, SaveSink } from './save-sink';

// The File System Access API is not in TypeScript's DOM library yet; these are the parts we use.
interface SaveFilePickerOptions {
  suggestedName?: string;
}
interface SaveFileHandle {
  createWritable(): Promise<FileSystemWritableFileStream>;
  getFile(): Promise<File>;
  /** Chromium 110+. */
  remove?: () => Promise<void>;
}
type ShowSaveFilePicker = (options?: SaveFilePickerOptions) => Promise<SaveFileHandle>;

/**
 * Saves through `showSaveFilePicker`. The picker needs the click's user activation, so the
 * download calls this before its first `await`. Chromium writes to a temporary file and moves
 * it into place on `close()`; `abort()` discards it, and a file the picker created empty for us
 * is removed again, so a failed download leaves no file behind.
 */
export async function openFsAccessSink(info: SaveFileInfo): Promise<SaveSink> {
  const picker = (globalThis as { showSaveFilePicker?: ShowSaveFilePicker }).showSaveFilePicker;
  if (picker === undefined) throw new Error('showSaveFilePicker is not available');
  let handle: SaveFileHandle;
  try {
    handle = await picker({ suggestedName: info.fileName });
  } catch (error) {
    // The user closed the picker: a cancellation, not a failure.
    if (isAbortError(error)) throw new TransferAbortedError(downloadMessages.aborted, { cause: error });
    throw error;
  }
  const createdEmpty = (await handle.getFile()).size === 0;
  // Opened on first use: when the download runs in the crypto worker, the worker opens its own.
  let writing: Promise<SaveSink> | null = null;
  const onPage = (): Promise<SaveSink> => (writing ??= openFileTargetSink(handle));
  return {
    write: async (bytes) => (await onPage()).write(bytes),
    close: async () => (await onPage()).close(),
    async abort(reason) {
      if (writing !== null) await (await writing.catch(() => null))?.abort(reason);
      if (createdEmpty) await handle.remove?.().catch(() => undefined);
    },
    handOff: () => ({
      target: { kind: 'file', handle: handle as unknown as FileSystemFileHandle, createdEmpty },
      transfer: [],
      async settle(outcome) {
        if (outcome === 'aborted' && createdEmpty) await handle.remove?.().catch(() => undefined);
      },
    }),
  };
}

/**
 * Writes to a picked file from the current thread (the page, or the crypto worker after a
 * hand-off: `createWritable()` works in dedicated workers). Chromium writes to a temporary file and
 * moves it into place on `close()`; `abort()` discards it.
 */
export async function openFileTargetSink(handle: Pick<SaveFileHandle, 'createWritable'>): Promise<SaveSink> {
  const writable = await handle.createWritable();
  return {
    async write(bytes) {
      // In slices: each write copies its bytes to the browser.
      for (const slice of slicesOf(bytes)) await writable.write(slice);
      releaseBuffer(bytes.buffer);
    },
    close: () => writable.close(),
    async abort(reason) {
      await writable.abort(reason).catch(() => undefined);
    },
  };
}
