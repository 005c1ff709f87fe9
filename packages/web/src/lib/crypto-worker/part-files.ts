/**
 * Upload parts written to files of the origin private file system (OPFS), so the part waiting to be
 * sent, and the one on its way, are on disk instead of in memory: XHR sends a file-backed `File`,
 * which the browser reads from disk as it sends. A Blob made from the ciphertext would be copied
 * into the renderer and again into the browser process (a chunk each, ~95 MiB) and kept there until
 * the worker's garbage collector freed its wrapper.
 *
 * Layout: `coffer-upload-parts/<worker>/part-<id>`, one folder per crypto worker, which holds a Web
 * Lock named after it for its whole life. A worker that starts removes the folders whose lock no one
 * holds: those of workers that died (a crashed tab, a closed browser) with parts in them. A part's
 * file is removed when its part is dropped.
 *
 * Only where the browser offers all of it (a dedicated worker with `createSyncAccessHandle`, Web
 * Locks; Firefox's private windows refuse the file system); anywhere else, and after any failure
 * (no space left, a quota), the caller keeps the part as an in-memory Blob.
 */

import { openWorkerFolder } from '../storage/worker-folder';

/** The parts' root folder in the origin private file system. */
export const PART_FILES_ROOT = 'coffer-upload-parts';

export interface PartFiles {
  /**
   * Writes the part `iv || ciphertext` to a new file and answers it as a `File` to send, or null
   * when files cannot be used here (the caller then keeps the part in memory).
   */
  write(id: number, iv: Uint8Array, ciphertext: Uint8Array): Promise<File | null>;
  /**
   * Opens a new file for part `id`, written slice by slice as the chunk is sealed (its synchronous
   * access handle stays open until `finish`), or null when files cannot be used here.
   */
  open(id: number): Promise<PartFileWriter | null>;
  /** Removes part `id`'s file, if it has one. */
  remove(id: number): void;
}

/** A part file being written: append its bytes in order, then `finish` (or `abandon`). */
export interface PartFileWriter {
  /** Appends `bytes` (copied to the file before it returns). @throws where the write fails (no space, a quota). */
  append(bytes: Uint8Array): void;
  /** Closes the file and answers it, to be sent. */
  finish(): Promise<File>;
  /** Closes and removes the file. Never throws. */
  abandon(): Promise<void>;
}

/**
 * The parts of `FileSystemSyncAccessHandle` used here (it is typed in the worker's library only).
 * `close` returned a promise in Chromium 102–107 and early Safari: it is awaited.
 */
interface SyncAccessHandle {
  write(buffer: Uint8Array, options: { at: number }): number;
  close(): void | Promise<void>;
}

type SyncFileHandle = FileSystemFileHandle & { createSyncAccessHandle?: () => Promise<SyncAccessHandle> };

/** The part files of this thread; null where the browser lacks what they need. */
export function createPartFiles(scope: typeof globalThis = globalThis): PartFiles | null {
  // Typed as always there; missing in some browsers and test environments.
  const { navigator } = scope as { navigator?: Partial<Navigator> };
  const storage = navigator?.storage;
  const locks = navigator?.locks;
  const { FileSystemFileHandle: fileHandles } = scope as { FileSystemFileHandle?: { prototype: object } };
  const syncHandles = fileHandles !== undefined && 'createSyncAccessHandle' in fileHandles.prototype;
  if (storage?.getDirectory === undefined || locks === undefined || !syncHandles) return null;

  let folder: Promise<FileSystemDirectoryHandle | null> | null = null;
  const named = new Map<number, string>();
  // Opened once: a worker whose folder could not be made keeps its parts in memory for its life.
  const open = (): Promise<FileSystemDirectoryHandle | null> => {
    folder ??= openWorkerFolder(PART_FILES_ROOT, storage, locks).catch(() => null);
    return folder;
  };
  // At once, so what dead workers left is removed when a worker starts, not at its first upload.
  void open();

  return {
    async write(id, iv, ciphertext) {
      const own = await open();
      if (own === null) return null;
      const name = `part-${id}`;
      try {
        const handle = (await own.getFileHandle(name, { create: true })) as SyncFileHandle;
        named.set(id, name);
        const access = await handle.createSyncAccessHandle?.();
        if (access === undefined) throw new Error('no sync access handle');
        try {
          // A new file: nothing to truncate. No flush: the file is read back by this browser, not
          // after a power cut, and syncing ~95 MiB to the disk for every part would only cost time.
          const written = access.write(iv, { at: 0 }) + access.write(ciphertext, { at: iv.byteLength });
          if (written !== iv.byteLength + ciphertext.byteLength)
            throw new Error('the part was not written whole');
        } finally {
          await access.close();
        }
        return await handle.getFile();
      } catch {
        // No space, a quota, a file system that went away: this part stays in memory instead.
        this.remove(id);
        return null;
      }
    },
    async open(id) {
      const own = await open();
      if (own === null) return null;
      const name = `part-${id}`;
      let access: SyncAccessHandle | undefined;
      try {
        const handle = (await own.getFileHandle(name, { create: true })) as SyncFileHandle;
        named.set(id, name);
        access = await handle.createSyncAccessHandle?.();
        if (access === undefined) throw new Error('no sync access handle');
        const file = access;
        let at = 0;
        let closed = false;
        const close = async (): Promise<void> => {
          if (closed) return;
          closed = true;
          await file.close();
        };
        return {
          append(bytes) {
            // No flush, as in `write`: the browser reads the file back, not a reboot.
            const written = file.write(bytes, { at });
            if (written !== bytes.byteLength) throw new Error('the part was not written whole');
            at += written;
          },
          finish: async () => {
            await close();
            return handle.getFile();
          },
          abandon: async () => {
            await close().catch(() => undefined);
            this.remove(id);
          },
        };
      } catch {
        await access?.close();
        this.remove(id);
        return null;
      }
    },
    remove(id) {
      const name = named.get(id);
      if (name === undefined) return;
      named.delete(id);
      void open().then((own) => own?.removeEntry(name).catch(() => undefined));
    },
  };
}
