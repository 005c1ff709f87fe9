import { claimWorkerName } from '../../storage/worker-folder';
import {
  blobChunkStores,
  workerChunkStores,
  type ChunkStoreFailedError,
  type ChunkStores,
  type ChunkWriter,
  type StoredChunk,
} from './chunk-store';

/**
 * The download service worker's chunk store (docs/transfers.md, "The chunk store"): each chunk's
 * ciphertext is written into an entry of the Cache API as it arrives, and read back from that entry
 * once, to decrypt it.
 *
 * Why not a file of the origin private file system, as the crypto worker keeps: a service worker
 * has no synchronous access handle, and `createWritable()` sends every write to the browser as a
 * Blob of its own, in shared memory mapped afresh for each write, and the browser writes a temporary
 * file that it moves into place on close. A Cache entry's body is a stream that the browser reads
 * through one pipe into its disk cache, and `match()` answers a Blob of that entry without reading
 * it. Measured in Chromium 156 (a page storing 6 chunks of 95 MiB from 1 MiB pieces and reading each
 * back, 2026-11-27, busy machine): through files 5.6–6.8 CPU-seconds and ~320 k page faults, through
 * the cache 3.5–4.8 CPU-seconds and ~160 k (each piece copied, below). In the app's 1 GiB download
 * (docs/benchmarks.md) the gain is smaller: ~20 MiB off the peak, the same CPU and speed.
 *
 * Each worker keeps its chunks in a cache of its own, `coffer-download-chunks/worker-<uuid>`, under
 * a Web Lock of that name held for its life; a worker that starts deletes the caches whose lock no
 * one holds (those of workers that died mid-download). Where the Cache API or Web Locks are
 * missing, or an entry cannot be written (a quota), the chunks are Blobs, as with files.
 *
 * A chunk's entry can change between the passes only by this origin's own code, which holds the key
 * anyway: the opener keeps `immutableSource` (verify.ts).
 */

/** Prefix of the workers' cache names (and of their locks). */
export const CHUNK_CACHE_PREFIX = 'coffer-download-chunks/';

/** What the chunk cache needs of the browser (a stand-in in unit tests). */
export interface ChunkCacheEnvironment {
  readonly caches?: Pick<CacheStorage, 'open' | 'keys' | 'delete'>;
  readonly locks?: Pick<LockManager, 'request'>;
}

/** The service worker's environment. */
export function currentChunkCacheEnvironment(scope: typeof globalThis = globalThis): ChunkCacheEnvironment {
  const { navigator, caches } = scope as { navigator?: Partial<Navigator>; caches?: CacheStorage };
  return {
    ...(caches === undefined ? {} : { caches }),
    ...(navigator?.locks === undefined ? {} : { locks: navigator.locks }),
  };
}

/**
 * This worker's chunk cache, with Blobs as the fallback (from the first failed write on, for the
 * worker's life). Call once per worker: it deletes dead workers' caches at once.
 */
export function createChunkCache(
  environment: ChunkCacheEnvironment = currentChunkCacheEnvironment(),
): ChunkStores {
  const { caches, locks } = environment;
  if (caches === undefined || locks === undefined) return blobChunkStores();
  return workerChunkStores<Cache>({
    kind: 'cache',
    place: claimWorkerName(CHUNK_CACHE_PREFIX, locks, {
      list: async () => (await caches.keys()).filter((name) => name.startsWith(CHUNK_CACHE_PREFIX)),
      remove: async (name) => {
        await caches.delete(name);
      },
    }).then((name) => caches.open(name)),
    // A URL of this origin that nothing fetches: the Cache API keys entries by request.
    name: (n) => `/__coffer_chunks__/${String(n)}`,
    remove: (cache, key) => cache.delete(key),
    writer: (cache, key, fail, remove) => Promise.resolve(cacheWriter(cache, key, fail, remove)),
  });
}

/**
 * One chunk into one entry: `cache.put` with a stream body that the browser pulls. Each append is
 * copied and queued once the browser asks for more (so at most one piece waits); the append
 * resolves once its bytes are copied: the caller's buffer is free.
 */
function cacheWriter(
  cache: Cache,
  key: string,
  fail: (error: unknown) => ChunkStoreFailedError,
  remove: () => void,
): ChunkWriter {
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  /** How many pieces the browser has asked for so far. */
  let asked = 0;
  let queued = 0;
  let wake: (() => void) | null = null;
  let ended = false;
  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      pull() {
        asked++;
        wake?.();
      },
      cancel() {
        ended = true;
        wake?.();
      },
    },
    { highWaterMark: 0 },
  );
  const putting = cache.put(key, new Response(body));
  // Its failure is thrown by the next append or by finish.
  let failure: unknown = null;
  putting.catch((error: unknown) => {
    failure = error;
    ended = true;
    wake?.();
  });
  /** Resolves once the browser asked for the next piece (or the write ended). */
  const asking = async (): Promise<void> => {
    while (asked <= queued && !ended) {
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = null;
    }
  };
  const failed = (): ChunkStoreFailedError => fail(failure ?? new Error('the chunk entry was not written'));
  let done = false;
  /** Appends run one after the other, in order, even when the next is called before one resolved. */
  let appending: Promise<void> = Promise.resolve();
  const appendNow = async (bytes: Uint8Array): Promise<void> => {
    await asking();
    if (ended || controller === null) throw failed();
    // A copy of its own for the browser, never a reused buffer: Chromium keeps a reference to a
    // piece it was given after asking for later ones (measured: a chunk stored from three rotating
    // buffers was read back with other bytes than the ones verified).
    controller.enqueue(bytes.slice());
    queued++;
  };
  return {
    append(bytes) {
      const appended = appending.then(() => appendNow(bytes));
      // A failed append fails every later one too.
      appending = appended;
      return appended;
    },
    async finish() {
      await appending;
      if (ended || controller === null) throw failed();
      controller.close();
      done = true;
      try {
        await putting;
        const answer = await cache.match(key);
        if (answer === undefined) throw new Error('the chunk entry is missing');
        const data = await answer.blob();
        const stored: StoredChunk = { data, remove };
        return stored;
      } catch (error) {
        failure ??= error;
        throw failed();
      }
    },
    async abandon() {
      if (!done) {
        try {
          controller?.error(new Error('abandoned'));
        } catch {
          // Already closed or errored.
        }
      }
      ended = true;
      wake?.();
      await appending.catch(() => undefined);
      await putting.catch(() => undefined);
      remove();
    },
  };
}
