/**
 * Where the fetch stage keeps a download's chunk between its two passes (verify, then decrypt:
 * docs/transfers.md, "Pipeline"): readable twice, never in a chunk-sized buffer.
 *
 * - Files of the origin private file system (`createChunkFiles`): each chunk's ciphertext is written
 *   to `coffer-download-chunks/<worker>/chunk-<n>` slice by slice as it arrives and answered as its
 *   `File`, which the browser reads from disk (`slice().arrayBuffer()`); the file is removed once its
 *   chunk is saved, or when the download ends whatever way. The crypto worker writes with a
 *   synchronous access handle, the download service worker (which has none) with `createWritable()`.
 *   Each worker holds a Web Lock named after its folder for its whole life; a worker that starts
 *   removes the folders whose lock no one holds (those of workers that died mid-download).
 * - Entries of the Cache API (`chunk-cache.ts`): the download service worker's, which has no
 *   synchronous access handle.
 * - Blobs (`blobChunkStore`): the fallback where that file system is missing, refused (Firefox's
 *   private windows) or full: the browser holds the chunk (in memory up to its blob limit).
 *
 * A chunk's file can change between the passes only by this origin's own code, which holds the
 * key anyway: the opener keeps `immutableSource` (verify.ts).
 */

import { openWorkerFolder } from '../../storage/worker-folder';

/** The download chunks' root folder in the origin private file system. */
export const CHUNK_FILES_ROOT = 'coffer-download-chunks';

/** A chunk as the fetch stage stored it: read it (twice) from `data`, then `remove` it. */
export interface StoredChunk {
  readonly data: Blob;
  /** The chunk was taken: its file is removed, or written over by the download's next chunk. Never throws; safe to call twice. */
  remove(): void;
}

/** One chunk being stored: append its bytes in order, then `finish` (or `abandon`). */
export interface ChunkWriter<Stored = StoredChunk> {
  /** Appends `bytes`, copied before this resolves (the caller reuses the buffer). @throws {ChunkStoreFailedError} */
  append(bytes: Uint8Array): Promise<void>;
  /** @throws {ChunkStoreFailedError} */
  finish(): Promise<Stored>;
  /** Drops what was written. Never throws. */
  abandon(): Promise<void>;
}

/** Where the fetch stage writes a chunk (a store, or a store with a verifier beside it: `download-run.ts`). */
export interface ChunkTarget<Stored = StoredChunk> {
  /** A writer for the next chunk (or for the same chunk again, after a break). */
  begin(): Promise<ChunkWriter<Stored>>;
}

export interface ChunkStore extends ChunkTarget {
  /** Where the chunks are kept (the benchmark and debug logs say it): files, Cache entries (`chunk-cache.ts`) or Blobs. */
  kind: 'files' | 'cache' | 'blobs';
  /** Drops every chunk still stored (the download ended). Never throws. */
  clear(): Promise<void>;
}

/**
 * Writing a chunk's file failed (no space left, a quota, the file system went away): the store
 * turned itself into Blobs, and the chunk must be received again from its first byte.
 */
export class ChunkStoreFailedError extends Error {
  constructor(cause: unknown) {
    super('The chunk could not be written to disk', { cause });
    this.name = 'ChunkStoreFailedError';
  }
}

/** Chunks as Blobs: each appended slice copied into a Blob of its own, the chunk their concatenation. */
export function blobChunkStore(): ChunkStore {
  return {
    kind: 'blobs',
    begin: () => Promise.resolve(blobWriter()),
    clear: () => Promise.resolve(),
  };
}

function blobWriter(): ChunkWriter {
  let pieces: Blob[] = [];
  return {
    append(bytes) {
      pieces.push(new Blob([bytes as Uint8Array<ArrayBuffer>]));
      return Promise.resolve();
    },
    finish() {
      const data = new Blob(pieces);
      pieces = [];
      return Promise.resolve({ data, remove: () => undefined });
    },
    abandon() {
      pieces = [];
      return Promise.resolve();
    },
  };
}

/** The parts of `FileSystemSyncAccessHandle` used here (typed in the dedicated worker's library only). */
interface SyncAccessHandle {
  write(buffer: Uint8Array, options: { at: number }): number;
  truncate(size: number): void;
  close(): void | Promise<void>;
}

/** `createSyncAccessHandle` is typed in the dedicated worker's library only; `createWritable` is missing in some browsers. */
type ChunkFileHandle = Omit<FileSystemFileHandle, 'createWritable'> & {
  createSyncAccessHandle?: () => Promise<SyncAccessHandle>;
  createWritable?: () => Promise<FileSystemWritableFileStream>;
};

/** What the chunk files need of the browser (a stand-in in unit tests). */
export interface ChunkFilesEnvironment {
  readonly storage?: Pick<StorageManager, 'getDirectory'>;
  readonly locks?: Pick<LockManager, 'request'>;
  /** True in a dedicated worker, the only place with synchronous access handles. */
  readonly syncHandles: boolean;
}

/** This thread's environment: the service worker and the crypto worker. */
export function currentChunkFilesEnvironment(scope: typeof globalThis = globalThis): ChunkFilesEnvironment {
  const { navigator } = scope as { navigator?: Partial<Navigator> };
  const dedicated = (scope as { DedicatedWorkerGlobalScope?: unknown }).DedicatedWorkerGlobalScope;
  return {
    ...(navigator?.storage === undefined ? {} : { storage: navigator.storage }),
    ...(navigator?.locks === undefined ? {} : { locks: navigator.locks }),
    syncHandles: typeof dedicated === 'function' && scope instanceof (dedicated as new () => object),
  };
}

/** A worker's chunk stores: one per download, all in the worker's folder. */
export interface ChunkStores {
  /** Where the next download keeps its chunks. */
  forDownload(): ChunkStore;
  /** Where this worker keeps chunks now (once its folder is open): the benchmark asks it. */
  kind(): Promise<ChunkStore['kind']>;
}

/**
 * The chunk files of this worker, with Blobs as the fallback: where the file system or Web Locks
 * are missing, where the folder cannot be made, and from the first failed write on (the worker keeps
 * Blobs for its life). Call once per worker: it sweeps dead workers' folders at once.
 */
export function createChunkFiles(
  environment: ChunkFilesEnvironment = currentChunkFilesEnvironment(),
): ChunkStores {
  const { storage, locks } = environment;
  if (storage?.getDirectory === undefined || locks === undefined) return blobChunkStores();
  return workerChunkStores<FileSystemDirectoryHandle>({
    kind: 'files',
    place: openWorkerFolder(CHUNK_FILES_ROOT, storage, locks),
    reuse: true,
    name: (n) => `chunk-${String(n)}`,
    remove: (folder, name) => folder.removeEntry(name),
    async writer(folder, name, fail, remove) {
      let handle: ChunkFileHandle;
      let writer: FileWriter;
      try {
        handle = await folder.getFileHandle(name, { create: true });
        writer = await fileWriter(handle, environment.syncHandles);
      } catch (error) {
        throw fail(error);
      }
      let closed = false;
      const close = async (): Promise<void> => {
        if (closed) return;
        closed = true;
        await writer.close();
      };
      return {
        async append(bytes) {
          try {
            await writer.append(bytes);
          } catch (error) {
            await close().catch(() => undefined);
            throw fail(error);
          }
        },
        async finish() {
          try {
            await close();
            return { data: await handle.getFile(), remove };
          } catch (error) {
            throw fail(error);
          }
        },
        async abandon() {
          await close().catch(() => undefined);
          remove();
        },
      };
    },
  });
}

/** A worker without a place for chunks: Blobs for every download. */
export function blobChunkStores(): ChunkStores {
  return { forDownload: blobChunkStore, kind: () => Promise.resolve('blobs') };
}

/** How {@link workerChunkStores} keeps chunks in a worker's own place (a folder, a cache). */
export interface WorkerChunkPlace<Place> {
  readonly kind: 'files' | 'cache';
  /** The worker's own place, once claimed (it rejects where it cannot be made: Blobs then). */
  readonly place: Promise<Place>;
  /**
   * A chunk that was taken (saved or abandoned) leaves its entry for the download's next chunk to be
   * written over, and the entries go when the download ends: the chunk files (session 25). A file
   * made and removed for every 95 MiB chunk had the system allocate and free its pages each time;
   * measured, the unobserved 1 GiB download used 6.4–7.3 CPU-seconds in Chromium against 7.6–9.1
   * (docs/benchmarks.md). Otherwise (Cache entries) each chunk's entry is removed once taken.
   */
  readonly reuse?: boolean;
  /** The name of the worker's n-th chunk. */
  name(n: number): string;
  remove(place: Place, name: string): Promise<unknown>;
  /**
   * A writer for chunk `name`; `fail` turns an error into the store's failure (and the worker to
   * Blobs for good), `remove` drops the chunk (a finished chunk's `remove`).
   */
  writer(
    place: Place,
    name: string,
    fail: (error: unknown) => ChunkStoreFailedError,
    remove: () => void,
  ): Promise<ChunkWriter>;
}

/**
 * A worker's chunk stores in its own place, one store per download, with Blobs as the fallback:
 * where the place cannot be made, and from the first failed write on (for the worker's life). A
 * store removes a chunk once it is saved, abandoned or failed (or, with `reuse`, writes the
 * download's next chunk over it), and every chunk of its download on `clear`, never another
 * download's.
 */
export function workerChunkStores<Place>(how: WorkerChunkPlace<Place>): ChunkStores {
  let place: Promise<Place | null> = how.place.catch(() => null);
  let next = 0;
  return {
    kind: async () => ((await place) === null ? 'blobs' : how.kind),
    forDownload: () => {
      const blobs = blobChunkStore();
      /** This download's chunks, each with its place (kept when the worker falls back to Blobs). */
      const stored = new Map<string, Place>();
      /** Entries of this download's taken chunks, for its next chunks to be written over (`reuse`). */
      const free = new Set<string>();
      const removeChunk = (own: Place, name: string): void => {
        free.delete(name);
        if (stored.delete(name)) void how.remove(own, name).catch(() => undefined);
      };
      const store: ChunkStore = {
        kind: how.kind,
        async begin() {
          const own = await place;
          if (own === null) {
            store.kind = 'blobs';
            return blobs.begin();
          }
          const [reused] = free;
          if (reused !== undefined) free.delete(reused);
          const name = reused ?? how.name(next++);
          stored.set(name, own);
          const fail = (error: unknown): ChunkStoreFailedError => {
            // From now on this worker keeps chunks as Blobs (the disk is full, a quota, the place went away).
            store.kind = 'blobs';
            place = Promise.resolve(null);
            removeChunk(own, name);
            return new ChunkStoreFailedError(error);
          };
          // Once per chunk: a second call must not free the entry again while a later chunk uses it.
          let taken = false;
          return how.writer(own, name, fail, () => {
            if (taken) return;
            taken = true;
            if (how.reuse === true && stored.has(name)) free.add(name);
            else removeChunk(own, name);
          });
        },
        async clear() {
          const chunks = [...stored];
          stored.clear();
          free.clear();
          await Promise.all(chunks.map(([name, own]) => how.remove(own, name).catch(() => undefined)));
        },
      };
      return store;
    },
  };
}

interface FileWriter {
  append(bytes: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

/**
 * Writes a file from its first byte (a new one, or a taken chunk's: what is left after the new bytes
 * is cut off): a synchronous access handle where there is one, else `createWritable()`.
 */
async function fileWriter(handle: ChunkFileHandle, syncHandles: boolean): Promise<FileWriter> {
  if (syncHandles && handle.createSyncAccessHandle !== undefined) {
    const access = await handle.createSyncAccessHandle();
    let at = 0;
    return {
      append(bytes) {
        // No flush: the file is read back by this browser, not after a power cut.
        const written = access.write(bytes, { at });
        at += written;
        if (written !== bytes.byteLength) return Promise.reject(new Error('the chunk was not written whole'));
        return Promise.resolve();
      },
      close: async () => {
        // The file may hold an earlier, longer chunk of the download (reused: WorkerChunkPlace.reuse).
        access.truncate(at);
        await access.close();
      },
    };
  }
  if (handle.createWritable === undefined) throw new Error('no writable file here');
  // Chromium writes a temporary file and moves it into place on close: the chunk exists whole or not at all.
  const writable = await handle.createWritable();
  return {
    append: (bytes) => writable.write(bytes as Uint8Array<ArrayBuffer>),
    close: () => writable.close(),
  };
}
