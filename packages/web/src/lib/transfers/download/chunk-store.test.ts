import { IntegrityError } from '@coffer/crypto';
import { describe, expect, it } from 'vitest';
import type { SaveSink } from '../save/save-sink';
import {
  blobChunkStore,
  CHUNK_FILES_ROOT,
  ChunkStoreFailedError,
  createChunkFiles,
  type ChunkFilesEnvironment,
} from './chunk-store';
import { FakeLocks } from '../testing/fake-locks';
import { downloadThroughStore, smallObject } from '../testing/store-download';

/**
 * Just enough of the origin private file system for `chunk-store.ts`, in memory: a file is written
 * through `createWritable()` (what the service worker has) or a synchronous access handle (the
 * crypto worker), and either can fail as asked (no space left).
 */
class FakeFile {
  bytes = new Uint8Array(0);
  constructor(private readonly folder: FakeFolder) {}

  #append(buffer: Uint8Array, at: number): number {
    if (this.folder.failWrites) throw new DOMException('no space', 'QuotaExceededError');
    const grown = new Uint8Array(Math.max(this.bytes.length, at + buffer.byteLength));
    grown.set(this.bytes);
    grown.set(buffer, at);
    this.bytes = grown;
    return buffer.byteLength;
  }

  /** As Chromium's: written into a new file that takes this one's place on close (nothing kept of before). */
  createWritable() {
    this.folder.writables++;
    const staged = new FakeFile(this.folder);
    let at = 0;
    return Promise.resolve({
      write: (buffer: Uint8Array) => {
        try {
          at += staged.#append(buffer, at);
          return Promise.resolve();
        } catch (error) {
          return Promise.reject(error instanceof Error ? error : new Error(String(error)));
        }
      },
      close: () => {
        this.bytes = staged.bytes;
        return Promise.resolve();
      },
    });
  }

  createSyncAccessHandle() {
    this.folder.syncHandles++;
    return Promise.resolve({
      write: (buffer: Uint8Array, { at }: { at: number }) => this.#append(buffer, at),
      truncate: (size: number) => {
        this.bytes = this.bytes.slice(0, size);
      },
      close: () => undefined,
    });
  }

  getFile(): Promise<File> {
    return Promise.resolve(new File([this.bytes.slice()], 'chunk'));
  }
}

class FakeFolder {
  readonly entries = new Map<string, FakeFolder | FakeFile>();
  failWrites = false;
  writables = 0;
  syncHandles = 0;

  getDirectoryHandle(name: string, options?: { create?: boolean }): Promise<FakeFolder> {
    let entry = this.entries.get(name);
    if (entry === undefined && options?.create === true) {
      entry = new FakeFolder();
      this.entries.set(name, entry);
    }
    if (!(entry instanceof FakeFolder)) return Promise.reject(new DOMException(name, 'NotFoundError'));
    return Promise.resolve(entry);
  }

  getFileHandle(name: string, options?: { create?: boolean }): Promise<FakeFile> {
    let entry = this.entries.get(name);
    if (entry === undefined && options?.create === true) {
      entry = new FakeFile(this);
      this.entries.set(name, entry);
    }
    if (!(entry instanceof FakeFile)) return Promise.reject(new DOMException(name, 'NotFoundError'));
    return Promise.resolve(entry);
  }

  removeEntry(name: string): Promise<void> {
    if (!this.entries.delete(name)) return Promise.reject(new DOMException(name, 'NotFoundError'));
    return Promise.resolve();
  }

  async *keys(): AsyncIterable<string> {
    for (const name of [...this.entries.keys()]) yield await Promise.resolve(name);
  }
}

function environment(
  root: FakeFolder,
  options: { locks?: FakeLocks; sync?: boolean } = {},
): ChunkFilesEnvironment {
  return {
    storage: { getDirectory: () => Promise.resolve(root as unknown as FileSystemDirectoryHandle) },
    locks: (options.locks ?? new FakeLocks()) as unknown as LockManager,
    syncHandles: options.sync ?? false,
  };
}

/** The files in this worker's folder (there is one worker folder unless a test made others). */
async function ownFiles(root: FakeFolder): Promise<string[]> {
  const chunks = await root.getDirectoryHandle(CHUNK_FILES_ROOT);
  const own = [...chunks.entries.values()].filter(
    (entry): entry is FakeFolder => entry instanceof FakeFolder,
  );
  return own.flatMap((folder) => [...folder.entries.keys()]);
}

async function ownFolder(root: FakeFolder): Promise<FakeFolder> {
  const chunks = await root.getDirectoryHandle(CHUNK_FILES_ROOT);
  const [own] = [...chunks.entries.values()].filter(
    (entry): entry is FakeFolder => entry instanceof FakeFolder,
  );
  if (own === undefined) throw new Error('no worker folder');
  return own;
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('chunk files', () => {
  it('writes a chunk slice by slice to a file (createWritable), answers its File, keeps the file for the next chunk', async () => {
    const root = new FakeFolder();
    const store = createChunkFiles(environment(root)).forDownload();
    const writer = await store.begin();
    await writer.append(new Uint8Array([1, 2]));
    await writer.append(new Uint8Array([3]));
    const chunk = await writer.finish();
    expect(store.kind).toBe('files');
    expect(chunk.data).toBeInstanceOf(File);
    expect([...new Uint8Array(await chunk.data.arrayBuffer())]).toEqual([1, 2, 3]);
    expect(await ownFiles(root)).toEqual(['chunk-0']);
    expect((await ownFolder(root)).writables).toBe(1);

    chunk.remove();
    chunk.remove();
    await settled();
    // Taken: the download's next chunk is written over it; the file goes when the download ends.
    expect(await ownFiles(root)).toEqual(['chunk-0']);
    await store.clear();
    expect(await ownFiles(root)).toEqual([]);
  });

  it('writes the next chunk over a taken one, cut to its own length, never over one still waiting', async () => {
    const root = new FakeFolder();
    const store = createChunkFiles(environment(root, { sync: true })).forDownload();
    const chunkOf = async (bytes: number[]) => {
      const writer = await store.begin();
      await writer.append(new Uint8Array(bytes));
      return writer.finish();
    };
    const first = await chunkOf([1, 2, 3]);
    const second = await chunkOf([4, 5]);
    expect(await ownFiles(root)).toEqual(['chunk-0', 'chunk-1']);
    first.remove();
    const third = await chunkOf([6]);
    expect(await ownFiles(root)).toEqual(['chunk-0', 'chunk-1']);
    expect([...new Uint8Array(await third.data.arrayBuffer())]).toEqual([6]);
    // A second call for a chunk taken earlier frees nothing: the third chunk is in that file now.
    first.remove();
    const fourth = await chunkOf([7]);
    expect(await ownFiles(root)).toEqual(['chunk-0', 'chunk-1', 'chunk-2']);
    expect([...new Uint8Array(await second.data.arrayBuffer())]).toEqual([4, 5]);
    expect([...new Uint8Array(await third.data.arrayBuffer())]).toEqual([6]);
    expect([...new Uint8Array(await fourth.data.arrayBuffer())]).toEqual([7]);
    await store.clear();
    expect(await ownFiles(root)).toEqual([]);
  });

  it('writes with a synchronous access handle in a dedicated worker', async () => {
    const root = new FakeFolder();
    const store = createChunkFiles(environment(root, { sync: true })).forDownload();
    const writer = await store.begin();
    await writer.append(new Uint8Array([7, 8]));
    const chunk = await writer.finish();
    expect([...new Uint8Array(await chunk.data.arrayBuffer())]).toEqual([7, 8]);
    const own = await ownFolder(root);
    expect([own.syncHandles, own.writables]).toEqual([1, 0]);
  });

  it('writes over an abandoned chunk, and removes every chunk of a download when it ends, but not those of another download', async () => {
    const root = new FakeFolder();
    const files = createChunkFiles(environment(root));
    const first = files.forDownload();
    const other = files.forDownload();
    const half = await first.begin();
    await half.append(new Uint8Array([9]));
    await half.abandon();
    // The chunk asked for again goes into the abandoned one's file; the other download has its own.
    for (const store of [first, other]) await (await store.begin()).finish();
    expect(await ownFiles(root)).toEqual(['chunk-0', 'chunk-1']);
    await first.clear();
    expect(await ownFiles(root)).toEqual(['chunk-1']);
  });

  it('falls back to Blobs for good when a write fails (no space): no file left, the error says so', async () => {
    const root = new FakeFolder();
    const store = createChunkFiles(environment(root)).forDownload();
    const writer = await store.begin();
    await writer.append(new Uint8Array([1]));
    (await ownFolder(root)).failWrites = true;
    await expect(writer.append(new Uint8Array([2]))).rejects.toBeInstanceOf(ChunkStoreFailedError);
    await settled();
    expect(await ownFiles(root)).toEqual([]);
    expect(store.kind).toBe('blobs');
    const again = await store.begin();
    await again.append(new Uint8Array([1, 2]));
    const chunk = await again.finish();
    expect(chunk.data).not.toBeInstanceOf(File);
    expect([...new Uint8Array(await chunk.data.arrayBuffer())]).toEqual([1, 2]);
  });

  it('is Blobs where the file system or Web Locks are missing (a private window, an old browser)', async () => {
    for (const env of [
      { syncHandles: false },
      { storage: environment(new FakeFolder()).storage, syncHandles: false },
    ]) {
      const store = createChunkFiles(env).forDownload();
      const chunk = await (await store.begin()).finish();
      expect(chunk.data).not.toBeInstanceOf(File);
      expect(store.kind).toBe('blobs');
    }
    const refused: ChunkFilesEnvironment = {
      ...environment(new FakeFolder()),
      storage: { getDirectory: () => Promise.reject(new DOMException('refused', 'SecurityError')) },
    };
    const store = createChunkFiles(refused).forDownload();
    await (await store.begin()).finish();
    expect(store.kind).toBe('blobs');
  });

  it('sweeps the folders of dead workers when it starts, never one whose worker holds its lock', async () => {
    const root = new FakeFolder();
    const chunks = await root.getDirectoryHandle(CHUNK_FILES_ROOT, { create: true });
    for (const name of ['worker-dead-1', 'worker-alive', 'worker-dead-2']) {
      await (
        await chunks.getDirectoryHandle(name, { create: true })
      ).getFileHandle('chunk-0', { create: true });
    }
    const locks = new FakeLocks();
    void locks.request(`${CHUNK_FILES_ROOT}/worker-alive`, () => new Promise(() => undefined));
    const store = createChunkFiles(environment(root, { locks })).forDownload();
    await (await store.begin()).finish();
    const names = [...chunks.entries.keys()];
    expect(names).toHaveLength(2);
    expect(names).toContain('worker-alive');
    const own = names.find((name) => name !== 'worker-alive') ?? '';
    expect(own).toMatch(/^worker-/);
    expect(locks.held.has(`${CHUNK_FILES_ROOT}/${own}`)).toBe(true);
  });
});

describe('a download through chunk files', () => {
  const CHUNK = 1024;
  const SLICE = 256;

  async function run(root: FakeFolder, tamperChunk: number | null, onWrite: () => void = () => undefined) {
    const object = await smallObject(CHUNK, tamperChunk);
    const written: Uint8Array[] = [];
    const filesWhenWritten: string[][] = [];
    const offsets: number[] = [];
    let aborted = false;
    const sink: SaveSink = {
      write: async (bytes) => {
        written.push(bytes.slice());
        filesWhenWritten.push(await ownFiles(root));
        onWrite();
      },
      close: () => Promise.resolve(),
      abort: () => {
        aborted = true;
        return Promise.resolve();
      },
    };
    const store = createChunkFiles(environment(root)).forDownload();
    const outcome = await downloadThroughStore(object, store, sink, SLICE, offsets);
    const { plain } = object;
    await settled();
    return { outcome, plain, written, filesWhenWritten, offsets, aborted };
  }

  it('saves the right bytes, at most two chunk files at once, none left at the end', async () => {
    const root = new FakeFolder();
    const { outcome, plain, written, filesWhenWritten } = await run(root, null);
    expect(outcome).toBeNull();
    expect(new Uint8Array(await new Blob(written as Uint8Array<ArrayBuffer>[]).arrayBuffer())).toEqual(plain);
    expect(Math.max(...filesWhenWritten.map((names) => names.length))).toBeLessThanOrEqual(2);
    expect(await ownFiles(root)).toEqual([]);
  });

  it('saves nothing of a tampered chunk and leaves no chunk file behind', async () => {
    const root = new FakeFolder();
    const { outcome, written, aborted } = await run(root, 1);
    expect(outcome).toBeInstanceOf(IntegrityError);
    expect(aborted).toBe(true);
    // Chunk 0 verified and was saved; nothing of chunk 1 (4 slices of 256 bytes per chunk).
    expect(written.reduce((sum, slice) => sum + slice.length, 0)).toBe(CHUNK);
    expect(await ownFiles(root)).toEqual([]);
  });

  it('receives a chunk again into a Blob when its file cannot be written (the disk is full)', async () => {
    const root = new FakeFolder();
    let writes = 0;
    const { outcome, plain, written, offsets } = await run(root, null, () => {
      // Once chunk 0 is saved, the disk fills up while chunk 1 (or 2) is received.
      if (++writes === 1) void ownFolder(root).then((own) => (own.failWrites = true));
    });
    expect(outcome).toBeNull();
    expect(new Uint8Array(await new Blob(written as Uint8Array<ArrayBuffer>[]).arrayBuffer())).toEqual(plain);
    // The chunk that failed was asked for again from its first byte.
    expect(offsets.length).toBe(2);
    expect((offsets[1] ?? 0) % (CHUNK + 28)).toBe(0);
    expect(await ownFiles(root)).toEqual([]);
  });
});

describe('blob chunk store', () => {
  it('keeps the appended slices as one Blob', async () => {
    const store = blobChunkStore();
    const writer = await store.begin();
    const slice = new Uint8Array([1, 2]);
    await writer.append(slice);
    slice[0] = 9; // the caller reuses its buffer
    await writer.append(new Uint8Array([3]));
    expect([...new Uint8Array(await (await writer.finish()).data.arrayBuffer())]).toEqual([1, 2, 3]);
  });
});
