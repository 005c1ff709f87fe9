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
  const writable = await handle.createWritable();
  return {
    async write(bytes) {
      // In slices: each write copies its bytes to the browser on the main thread.
      for (const slice of slicesOf(bytes)) await writable.write(slice);
      releaseBuffer(bytes.buffer);
    },
    close: () => writable.close(),
    async abort(reason) {
      await writable.abort(reason).catch(() => undefined);
      if (createdEmpty) await handle.remove?.().catch(() => undefined);
    },
  };
}
