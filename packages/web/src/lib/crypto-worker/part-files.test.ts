import { describe, expect, it } from 'vitest';
import { FakeXhr } from '../transfers/testing/fake-xhr';
import { PartLostError } from './chunk-cipher';
import { createPartFiles, PART_FILES_ROOT, type PartFiles } from './part-files';
import { createPartStore } from './part-store';
import { FakeLocks } from '../transfers/testing/fake-locks';

/**
 * Just enough of the origin private file system and Web Locks for `part-files.ts`, in memory: a
 * file's synchronous access handle writes into its bytes (or fails, or writes short, as asked).
 */
class FakeFile {
  bytes = new Uint8Array(0);
  constructor(readonly fails: 'quota' | 'short' | null) {}

  createSyncAccessHandle() {
    return Promise.resolve({
      write: (buffer: Uint8Array, { at }: { at: number }): number => {
        if (this.fails === 'quota') throw new DOMException('no space', 'QuotaExceededError');
        const length = this.fails === 'short' ? Math.floor(buffer.byteLength / 2) : buffer.byteLength;
        const grown = new Uint8Array(Math.max(this.bytes.length, at + length));
        grown.set(this.bytes);
        grown.set(buffer.subarray(0, length), at);
        this.bytes = grown;
        return length;
      },
      close: () => Promise.resolve(),
    });
  }

  getFile(): Promise<File> {
    return Promise.resolve(new File([this.bytes.slice()], 'part'));
  }
}

class FakeFolder {
  readonly entries = new Map<string, FakeFolder | FakeFile>();
  constructor(private readonly fileFails: () => 'quota' | 'short' | null = () => null) {}

  getDirectoryHandle(name: string, options?: { create?: boolean }): Promise<FakeFolder> {
    let entry = this.entries.get(name);
    if (entry === undefined && options?.create === true) {
      entry = new FakeFolder(this.fileFails);
      this.entries.set(name, entry);
    }
    if (!(entry instanceof FakeFolder)) return Promise.reject(new DOMException(name, 'NotFoundError'));
    return Promise.resolve(entry);
  }

  getFileHandle(name: string, options?: { create?: boolean }): Promise<FakeFile> {
    let entry = this.entries.get(name);
    if (entry === undefined && options?.create === true) {
      entry = new FakeFile(this.fileFails());
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
    // A live view, as a browser's listing may be: removals while listing would shift it.
    for (const name of this.entries.keys()) yield await Promise.resolve(name);
  }

  /** Folder → file names, for assertions. */
  tree(): Record<string, string[]> {
    return Object.fromEntries(
      [...this.entries].map(([name, entry]) => [
        name,
        entry instanceof FakeFolder ? [...entry.entries.keys()] : [],
      ]),
    );
  }
}

function browserScope(root: FakeFolder, locks = new FakeLocks()): typeof globalThis {
  return {
    navigator: { storage: { getDirectory: () => Promise.resolve(root) }, locks },
    FileSystemFileHandle: { prototype: { createSyncAccessHandle: () => undefined } },
  } as unknown as typeof globalThis;
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('part files', () => {
  it('writes each part to a file in a folder of its own, sent as a File, removed when dropped', async () => {
    const root = new FakeFolder();
    const files = createPartFiles(browserScope(root));
    const part = await files?.write(3, new Uint8Array([1, 2]), new Uint8Array([3, 4, 5]));
    expect([...new Uint8Array((await part?.arrayBuffer()) ?? new ArrayBuffer(0))]).toEqual([1, 2, 3, 4, 5]);
    const folders = (await root.getDirectoryHandle(PART_FILES_ROOT)).tree();
    expect(Object.values(folders)).toEqual([['part-3']]);
    expect(Object.keys(folders)[0]).toMatch(/^worker-/);

    files?.remove(3);
    await settled();
    expect(Object.values((await root.getDirectoryHandle(PART_FILES_ROOT)).tree())).toEqual([[]]);
  });

  it('answers null, and leaves no file, when a part cannot be written whole (no space, a short write)', async () => {
    const failures: ('quota' | 'short')[] = ['quota', 'short'];
    const root = new FakeFolder(() => failures.shift() ?? null);
    const files = createPartFiles(browserScope(root));
    expect(await files?.write(1, new Uint8Array([1]), new Uint8Array([2, 3, 4, 5]))).toBeNull();
    expect(await files?.write(2, new Uint8Array([1]), new Uint8Array([2, 3, 4, 5]))).toBeNull();
    await settled();
    expect(Object.values((await root.getDirectoryHandle(PART_FILES_ROOT)).tree())).toEqual([[]]);
    // The next one fits: files are still used.
    expect((await files?.write(3, new Uint8Array([1]), new Uint8Array([2])))?.size).toBe(2);
  });

  it('removes the folders of dead workers when it starts, never one whose worker holds its lock', async () => {
    const root = new FakeFolder();
    const parts = await root.getDirectoryHandle(PART_FILES_ROOT, { create: true });
    for (const name of ['worker-dead-1', 'worker-alive', 'worker-dead-2']) {
      await (
        await parts.getDirectoryHandle(name, { create: true })
      ).getFileHandle('part-1', { create: true });
    }
    const locks = new FakeLocks();
    void locks.request(`${PART_FILES_ROOT}/worker-alive`, () => new Promise(() => undefined));
    const files = createPartFiles(browserScope(root, locks));
    await files?.write(1, new Uint8Array([1]), new Uint8Array([2]));
    const names = Object.keys(parts.tree());
    expect(names).toHaveLength(2);
    expect(names).toContain('worker-alive');
    expect(names.filter((name) => name.startsWith('worker-dead'))).toEqual([]);
    // This worker holds the lock of its own folder, so no other worker removes it.
    const own = names.find((name) => name !== 'worker-alive') ?? '';
    expect(locks.held.has(`${PART_FILES_ROOT}/${own}`)).toBe(true);
  });

  it('is not used where the browser lacks synchronous access handles or Web Locks', () => {
    const root = new FakeFolder();
    const scope = browserScope(root) as unknown as Record<string, unknown>;
    expect(
      createPartFiles({ ...scope, FileSystemFileHandle: undefined } as unknown as typeof globalThis),
    ).toBeNull();
    expect(
      createPartFiles({ ...scope, navigator: { storage: {} } } as unknown as typeof globalThis),
    ).toBeNull();
  });
});

describe('a part store with part files', () => {
  it('writes a part slice by slice into its file, and removes a file abandoned half-way', async () => {
    const root = new FakeFolder();
    const files = createPartFiles(browserScope(root));
    const writer = await files?.open(4);
    writer?.append(new Uint8Array([1, 2]));
    writer?.append(new Uint8Array([3]));
    const part = await writer?.finish();
    expect([...new Uint8Array((await part?.arrayBuffer()) ?? new ArrayBuffer(0))]).toEqual([1, 2, 3]);

    const half = await files?.open(5);
    half?.append(new Uint8Array([9]));
    await half?.abandon();
    await settled();
    expect(Object.values((await root.getDirectoryHandle(PART_FILES_ROOT)).tree())).toEqual([['part-4']]);
  });

  it('seals into a Blob instead when the part file fails half-way (no space): the same bytes, no file left', async () => {
    const failures: ('quota' | null)[] = ['quota'];
    const root = new FakeFolder(() => failures.shift() ?? null);
    const store = createPartStore(undefined, createPartFiles(browserScope(root)));
    let runs = 0;
    const { size, sealed } = await store.holdSealing(1, (writer) => {
      runs++;
      writer.append(new Uint8Array([1, 2, 3]));
      writer.append(new Uint8Array([4]));
      return Promise.resolve('done');
    });
    expect([size, sealed, runs, store.count]).toEqual([4, 'done', 2, 1]);
    await settled();
    expect(Object.values((await root.getDirectoryHandle(PART_FILES_ROOT)).tree())).toEqual([[]]);
  });

  it('reports a part whose file can no longer be read as lost, so the page seals it again', async () => {
    /** A file-backed part whose file was removed: sending fails on the network, reading it fails too. */
    class GoneFile extends Blob {
      override slice(): Blob {
        return { arrayBuffer: () => Promise.reject(new DOMException('gone', 'NotReadableError')) } as Blob;
      }
    }
    const removed: number[] = [];
    const files: PartFiles = {
      write: () => Promise.resolve(new GoneFile([new Uint8Array(3)]) as File),
      open: () => Promise.resolve(null),
      remove: (id) => removed.push(id),
    };
    const store = createPartStore(
      () => new FakeXhr(() => Promise.resolve({ kind: 'network-error' })) as unknown as XMLHttpRequest,
      files,
    );
    await store.hold(1, new Uint8Array([1]), new Uint8Array([2, 3]));
    const request = { id: 2, op: 'send-part', parts: [1], method: 'PUT', url: '/p', headers: {} } as const;
    await expect(store.send(request, undefined)).rejects.toBeInstanceOf(PartLostError);
    expect([store.count, removed]).toEqual([0, [1]]);
  });

  it('keeps the network error for a part that can still be read (the page retries it)', async () => {
    const store = createPartStore(
      () => new FakeXhr(() => Promise.resolve({ kind: 'network-error' })) as unknown as XMLHttpRequest,
    );
    await store.hold(1, new Uint8Array([1]), new Uint8Array([2, 3]));
    const request = { id: 2, op: 'send-part', parts: [1], method: 'PUT', url: '/p', headers: {} } as const;
    await expect(store.send(request, undefined)).rejects.toMatchObject({ code: 'NETWORK' });
    expect(store.count).toBe(1);
    store.drop(1);
    expect(store.count).toBe(0);
  });
});
