import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BlobStore } from './blob-store.js';
import { BlobReadError, BlobSizeMismatchError } from './blob-store.js';
import { caught, failingBody, pieces, readAll } from './blob-store.contract.js';
import { createFsBlobStore } from './blob-store.fs.js';
import { IO_CHUNK_SIZE } from './byte-streams.js';

/** What only the fs store can be asked: what is left on disk. The shared behaviour is in the contract. */
describe('fs blob store on disk', () => {
  let root: string;
  let store: BlobStore;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'coffer-fs-blobs-'));
    store = createFsBlobStore({ root });
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('leaves no file behind after failed puts', async () => {
    await store.put('keep', pieces(randomBytes(10), [10]), { size: 10 });
    const before = await listFiles(root);
    const results = await Promise.all(
      [
        store.put('a/b', pieces(randomBytes(99), [10]), { size: 100 }),
        store.put('a/b', pieces(randomBytes(101), [10]), { size: 100 }),
        store.put('a/c', failingBody(randomBytes(300_000), 200_000, new Error('dropped')), { size: 300_000 }),
        store.put('keep', failingBody(randomBytes(300_000), 100_000, new Error('dropped')), {
          size: 300_000,
        }),
      ].map((failure) => failure.catch(caught)),
    );
    for (const result of results) expect(result).toBeInstanceOf(Error);
    expect(await listFiles(root)).toEqual(before);
    expect(await store.stat('a/b')).toBeNull();
    expect(await store.stat('keep')).toEqual({ size: 10 });
  });

  it('leaves no part file behind after failed or replaced part uploads, nor after an abort', async () => {
    const { uploadId } = await store.createMultipart('m');
    const before = await listFiles(root);
    const error = await store
      .uploadPart('m', uploadId, 1, pieces(randomBytes(5), [5]), { size: 6 })
      .catch(caught);
    expect(error).toBeInstanceOf(BlobSizeMismatchError);
    expect(await listFiles(root)).toEqual(before);
    await store.uploadPart('m', uploadId, 1, pieces(randomBytes(6), [6]), { size: 6 });
    await store.uploadPart('m', uploadId, 1, pieces(randomBytes(6), [6]), { size: 6 });
    expect((await listFiles(join(root, 'uploads'))).filter((file) => file.includes('/1.'))).toHaveLength(1);
    await store.abortMultipart('m', uploadId);
    expect(await listFiles(root)).toEqual([]);
  });

  it('completes without copying: the part files become the object, and nothing is left in uploads', async () => {
    const { uploadId } = await store.createMultipart('big/file');
    const parts = [];
    for (const partNumber of [1, 2]) {
      const { etag } = await store.uploadPart(
        'big/file',
        uploadId,
        partNumber,
        pieces(randomBytes(4096), [4096]),
        {
          size: 4096,
        },
      );
      parts.push({ partNumber, etag });
    }
    const inodes = await inodesOf(join(root, 'uploads'));
    await store.completeMultipart('big/file', uploadId, parts);
    expect(await listFiles(join(root, 'uploads'))).toEqual([]);
    const after = await inodesOf(join(root, 'data'));
    expect([...after.values()].sort()).toEqual(
      [...inodes.entries()]
        .filter(([name]) => !name.endsWith('upload.json'))
        .map(([, ino]) => ino)
        .sort(),
    );
  });

  it('removes the data of replaced and deleted objects', async () => {
    await store.put('x', pieces(randomBytes(100), [100]), { size: 100 });
    await store.put('x', pieces(randomBytes(50), [50]), { size: 50 });
    expect((await listFiles(join(root, 'data'))).length).toBe(1);
    await store.delete('x');
    expect(await listFiles(root)).toEqual([]);
  });

  it('reads in 1 MiB chunks', async () => {
    const data = randomBytes(3 * IO_CHUNK_SIZE + 5);
    await store.put('chunks', pieces(data, [65_536]), { size: data.length });
    const sizes: number[] = [];
    for await (const chunk of (await store.get('chunks')).body) sizes.push(chunk.byteLength);
    expect(sizes).toEqual([IO_CHUNK_SIZE, IO_CHUNK_SIZE, IO_CHUNK_SIZE, 5]);
  });

  it('sweeps leftovers older than a day from tmp when it starts', async () => {
    await mkdir(join(root, 'tmp'), { recursive: true });
    const old = join(root, 'tmp', 'old.part');
    const fresh = join(root, 'tmp', 'fresh.part');
    await writeFile(old, 'x');
    await writeFile(fresh, 'x');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    await utimes(old, twoDaysAgo, twoDaysAgo);
    expect(await createFsBlobStore({ root }).stat('anything')).toBeNull();
    expect(await listFiles(join(root, 'tmp'))).toEqual(['fresh.part']);
  });

  it("removes a dead process's scratch folder when it starts, and keeps a live one's", async () => {
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      const deadDir = join(root, 'tmp', `${dead}-0123456789ab`);
      const liveDir = join(root, 'tmp', `${live.pid ?? 0}-0123456789ab`);
      for (const dir of [deadDir, liveDir]) {
        await mkdir(dir, { recursive: true });
        await writeFile(join(dir, 'half-written.part'), randomBytes(1000));
      }
      expect(await createFsBlobStore({ root }).stat('anything')).toBeNull();
      expect(await listFiles(join(root, 'tmp'))).toEqual([
        join(`${live.pid ?? 0}-0123456789ab`, 'half-written.part'),
      ]);
    } finally {
      live.kill('SIGKILL');
    }
  });

  it('never removes the scratch of another store open in this process', async () => {
    const other = createFsBlobStore({ root });
    const upload = await store.createMultipart('a');
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    async function* slowBody() {
      yield randomBytes(10);
      await held;
      yield randomBytes(10);
    }
    const part = store.uploadPart('a', upload.uploadId, 1, slowBody(), { size: 20 });
    // The part is half written in the first store's scratch folder when the second store starts.
    while ((await listFiles(join(root, 'tmp'))).length === 0) await new Promise((r) => setTimeout(r, 5));
    expect(await other.stat('anything')).toBeNull();
    expect(await listFiles(join(root, 'tmp'))).toHaveLength(1);
    release();
    await expect(part).resolves.toMatchObject({ etag: expect.any(String) as string });
  });

  it('reports a damaged manifest as BlobReadError, not as missing', async () => {
    await store.put('damaged', pieces(randomBytes(10), [10]), { size: 10 });
    await writeFile(join(root, 'objects', 'damaged.json'), '{"v":1,"size":10,"data":"../../etc","parts":[]}');
    await expect(store.get('damaged')).rejects.toBeInstanceOf(BlobReadError);
  });

  it('keeps keys that are prefixes of each other apart on disk', async () => {
    await store.put('u/1', pieces(randomBytes(1), [1]), { size: 1 });
    await store.put('u/1/2', pieces(randomBytes(2), [2]), { size: 2 });
    await store.delete('u/1');
    expect(await store.stat('u/1/2')).toEqual({ size: 2 });
    const data = randomBytes(3);
    await store.put('u/1', pieces(data, [3]), { size: 3 });
    expect(new Uint8Array(await readAll((await store.get('u/1')).body))).toEqual(new Uint8Array(data));
  });
});

/** Regular files under `dir`, relative to it, sorted. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

async function inodesOf(dir: string): Promise<Map<string, number>> {
  const result = new Map<string, number>();
  for (const file of await listFiles(dir)) result.set(file, (await stat(join(dir, file))).ino);
  return result;
}
