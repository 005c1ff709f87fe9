import { IntegrityError } from '@coffer/crypto';
import { describe, expect, it } from 'vitest';
import type { SaveSink } from '../save/save-sink';
import { FakeLocks } from '../testing/fake-locks';
import { downloadThroughStore, smallObject } from '../testing/store-download';
import { CHUNK_CACHE_PREFIX, createChunkCache, type ChunkCacheEnvironment } from './chunk-cache';
import { ChunkStoreFailedError } from './chunk-store';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Just enough of the Cache API for `chunk-cache.ts`, in memory. `put` reads the body as a browser
 * does: one piece at a time, "writing" each (a copy) only a task later, and asking for the next
 * piece only once it wrote the one before; it fails as asked (a quota).
 */
class FakeCache {
  readonly entries = new Map<string, Uint8Array[]>();
  failWrites = false;

  async put(key: string, response: Response): Promise<void> {
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const pieces: Uint8Array[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      await tick();
      if (this.failWrites) {
        await reader.cancel();
        throw new DOMException('quota', 'QuotaExceededError');
      }
      pieces.push(value.slice());
    }
    this.entries.set(key, pieces);
  }

  match(key: string): Promise<Response | undefined> {
    const pieces = this.entries.get(key);
    return Promise.resolve(
      pieces === undefined ? undefined : new Response(new Blob(pieces as Uint8Array<ArrayBuffer>[])),
    );
  }

  delete(key: string): Promise<boolean> {
    return Promise.resolve(this.entries.delete(key));
  }
}

class FakeCacheStorage {
  readonly caches = new Map<string, FakeCache>();

  open(name: string): Promise<FakeCache> {
    let cache = this.caches.get(name);
    if (cache === undefined) {
      cache = new FakeCache();
      this.caches.set(name, cache);
    }
    return Promise.resolve(cache);
  }

  keys(): Promise<string[]> {
    return Promise.resolve([...this.caches.keys()]);
  }

  delete(name: string): Promise<boolean> {
    return Promise.resolve(this.caches.delete(name));
  }

  /** The one worker cache (tests that made no others). */
  own(): FakeCache {
    const [cache] = this.caches.values();
    if (cache === undefined) throw new Error('no worker cache');
    return cache;
  }
}

function environment(storage: FakeCacheStorage, locks = new FakeLocks()): ChunkCacheEnvironment {
  return { caches: storage as unknown as CacheStorage, locks: locks as unknown as LockManager };
}

async function bytesOf(blob: Blob): Promise<number[]> {
  return [...new Uint8Array(await blob.arrayBuffer())];
}

describe('chunk cache (the download service worker)', () => {
  it("stores what was appended from the caller's reused buffer, answers it as a Blob, removes it when asked", async () => {
    const storage = new FakeCacheStorage();
    const stores = createChunkCache(environment(storage));
    const store = stores.forDownload();
    const writer = await store.begin();
    // The caller refills ONE buffer after each append resolves, as the fetch stage does.
    const buffer = new Uint8Array(4);
    for (let piece = 0; piece < 5; piece++) {
      buffer.fill(piece);
      await writer.append(buffer);
    }
    const chunk = await writer.finish();
    expect(await bytesOf(chunk.data)).toEqual([0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4]);
    expect(store.kind).toBe('cache');
    expect(await stores.kind()).toBe('cache');
    expect(storage.own().entries.size).toBe(1);
    chunk.remove();
    await tick();
    expect(storage.own().entries.size).toBe(0);
  });

  it('keeps appends in order when the next comes before the previous one resolved', async () => {
    const storage = new FakeCacheStorage();
    const writer = await createChunkCache(environment(storage)).forDownload().begin();
    const first = new Uint8Array([1, 2, 3]);
    const second = new Uint8Array([4, 5]);
    const appended = Promise.all([writer.append(first), writer.append(second)]);
    await appended;
    first.fill(9);
    second.fill(9);
    expect(await bytesOf((await writer.finish()).data)).toEqual([1, 2, 3, 4, 5]);
  });

  it('removes an abandoned chunk, and every chunk of a download when it ends, but not those of another', async () => {
    const storage = new FakeCacheStorage();
    const stores = createChunkCache(environment(storage));
    const download = stores.forDownload();
    const other = stores.forDownload();
    const abandoned = await download.begin();
    await abandoned.append(new Uint8Array([1]));
    await abandoned.abandon();
    await (await download.begin()).finish();
    await (await download.begin()).finish();
    await (await other.begin()).finish();
    expect(storage.own().entries.size).toBe(3);
    await download.clear();
    expect(storage.own().entries.size).toBe(1);
  });

  it('falls back to Blobs for good when an entry cannot be written (a quota): no entry left, the error says so', async () => {
    const storage = new FakeCacheStorage();
    const stores = createChunkCache(environment(storage));
    const store = stores.forDownload();
    const writer = await store.begin();
    storage.own().failWrites = true;
    const failed = await writer
      .append(new Uint8Array([1, 2]))
      .then(
        () => writer.finish(),
        (error: unknown) => Promise.reject(error instanceof Error ? error : new Error(String(error))),
      )
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ChunkStoreFailedError);
    expect(store.kind).toBe('blobs');
    expect(await stores.kind()).toBe('blobs');
    const again = await store.begin();
    await again.append(new Uint8Array([7]));
    expect(await bytesOf((await again.finish()).data)).toEqual([7]);
    expect(storage.own().entries.size).toBe(0);
  });

  it('is Blobs where the Cache API or Web Locks are missing', async () => {
    for (const env of [
      { locks: new FakeLocks() as unknown as LockManager },
      { caches: new FakeCacheStorage() as unknown as CacheStorage },
    ]) {
      const stores = createChunkCache(env);
      expect(await stores.kind()).toBe('blobs');
      const writer = await stores.forDownload().begin();
      await writer.append(new Uint8Array([3]));
      expect(await bytesOf((await writer.finish()).data)).toEqual([3]);
    }
  });

  it('deletes the caches of dead workers when it starts, never one whose worker holds its lock', async () => {
    const storage = new FakeCacheStorage();
    for (const name of ['worker-dead-1', 'worker-alive', 'worker-dead-2'])
      await storage.open(`${CHUNK_CACHE_PREFIX}${name}`);
    await storage.open('an-app-cache');
    const locks = new FakeLocks();
    locks.holdForever(`${CHUNK_CACHE_PREFIX}worker-alive`);
    const store = createChunkCache(environment(storage, locks)).forDownload();
    await (await store.begin()).finish();
    const names = [...storage.caches.keys()];
    expect(names).toHaveLength(3);
    expect(names).toContain(`${CHUNK_CACHE_PREFIX}worker-alive`);
    expect(names).toContain('an-app-cache');
    const own =
      names.find((name) => name.startsWith(`${CHUNK_CACHE_PREFIX}worker-`) && !name.endsWith('alive')) ?? '';
    expect(locks.held.has(own)).toBe(true);
  });
});

describe('a download through the chunk cache', () => {
  const CHUNK = 1024;
  const SLICE = 256;

  async function run(tamperChunk: number | null) {
    const object = await smallObject(CHUNK, tamperChunk);
    const storage = new FakeCacheStorage();
    const written: Uint8Array[] = [];
    const entriesWhenWritten: number[] = [];
    let aborted = false;
    const sink: SaveSink = {
      write: (bytes) => {
        written.push(bytes.slice());
        entriesWhenWritten.push(storage.own().entries.size);
        return Promise.resolve();
      },
      close: () => Promise.resolve(),
      abort: () => {
        aborted = true;
        return Promise.resolve();
      },
    };
    const store = createChunkCache(environment(storage)).forDownload();
    const outcome = await downloadThroughStore(object, store, sink, SLICE);
    const { plain } = object;
    await tick();
    return { outcome, plain, written, entriesWhenWritten, aborted, entriesLeft: storage.own().entries.size };
  }

  it('saves the right bytes, at most two chunk entries at once, none left at the end', async () => {
    const { outcome, plain, written, entriesWhenWritten, entriesLeft } = await run(null);
    expect(outcome).toBeNull();
    expect(new Uint8Array(await new Blob(written as Uint8Array<ArrayBuffer>[]).arrayBuffer())).toEqual(plain);
    expect(Math.max(...entriesWhenWritten)).toBeLessThanOrEqual(2);
    expect(entriesLeft).toBe(0);
  });

  it('saves nothing of a tampered chunk and leaves no entry behind', async () => {
    const { outcome, written, aborted, entriesLeft } = await run(1);
    expect(outcome).toBeInstanceOf(IntegrityError);
    expect(aborted).toBe(true);
    expect(written.reduce((sum, slice) => sum + slice.length, 0)).toBe(CHUNK);
    expect(entriesLeft).toBe(0);
  });
});
