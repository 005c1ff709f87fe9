import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { BlobRange, BlobReadOptions, BlobReadResult, BlobStore, CompletedPart } from './blob-store.js';
import type { ReadBuffers } from './read-buffers.js';
import {
  BlobNotFoundError,
  BlobReadError,
  InvalidPartError,
  MultipartUploadNotFoundError,
  assertValidKey,
  assertValidPartList,
  assertValidPartNumber,
  assertValidSize,
  assertWellFormedRange,
  resolveRange,
} from './blob-store.js';
import { exactSize } from './byte-streams.js';
import {
  RANDOM_ID_PATTERN,
  errnoCode,
  fsyncDir,
  mkdirDurable,
  randomId,
  readFileRange,
  removeStaleEntries,
  writeNewFile,
  writeNewSmallFile,
} from './fs-io.js';

export interface FsBlobStoreOptions {
  /** Folder that holds everything; created if missing. Must be on one filesystem (renames). */
  root: string;
}

/**
 * What makes an object visible: `objects/<key>.json`, published by an atomic rename. It points at
 * an immutable version folder `data/<shard>/<versionId>/` and lists the files there, in order,
 * whose concatenation is the object.
 */
interface Manifest {
  v: 1;
  size: number;
  /** `<shard>/<versionId>` under `data/`. */
  data: string;
  parts: { name: string; size: number }[];
}

const UPLOAD_META = 'upload.json';
const SINGLE_PART_NAME = 'blob';
const DATA_PATTERN = /^[0-9a-f]{2}\/[0-9a-f]{32}$/;
const PART_NAME_PATTERN = /^(?:blob|[0-9]{1,5}\.[0-9a-f]{32})$/;
const STALE_TEMP_AGE_MS = 24 * 60 * 60 * 1000;
/** `tmp/<pid>-<boot id>/`: the scratch folder of one store in one process. */
const SCRATCH_PATTERN = /^(\d+)-([0-9a-f]{12})$/;
/** Scratch folders of the stores open in this process: never another's to remove. */
const liveScratch = new Set<string>();

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return errnoCode(error) === 'EPERM';
  }
}

/**
 * Removes what dead processes left in `tmp/`: the scratch folder of a store whose process is gone (a
 * crash, kill -9, power loss) holds only half-written puts and parts, which nothing will ever finish.
 * A pid equal to ours but not one of our folders is an earlier process that had the same pid (a
 * container restart). Entries of another shape (older versions) go once they are a day old.
 */
async function removeDeadScratch(tmp: string): Promise<void> {
  for (const name of await readdir(tmp)) {
    if (liveScratch.has(name)) continue;
    const match = SCRATCH_PATTERN.exec(name);
    if (match === null) continue;
    const pid = Number(match[1]);
    if (pid === process.pid || !processAlive(pid)) {
      await rm(join(tmp, name), { recursive: true, force: true });
    }
  }
  await removeStaleEntries(tmp, STALE_TEMP_AGE_MS, (name) => !SCRATCH_PATTERN.test(name));
}

/**
 * A blob store in a local folder: the zero-configuration default.
 *
 * Layout under `root`:
 * - `tmp/`: staging for puts, parts and manifests, and a trash for removals; everything here is
 *   garbage unless an operation in flight owns it (leftovers older than a day are swept at start).
 * - `uploads/<uploadId>/`: an open multipart upload: `upload.json` (its key) and part files
 *   `<partNumber>.<etag>`; a re-sent part gets a new etag, so a part is replaced by a rename, never
 *   rewritten in place.
 * - `data/<shard>/<versionId>/`: immutable object data. A put stages its single file in `tmp/` and
 *   moves the folder here; completing an upload renames the upload's folder here as it is, so no
 *   data is copied whatever the size.
 * - `objects/<key>.json`: the manifest (see {@link Manifest}). Publishing it is the one atomic
 *   step that makes an object visible or replaces it.
 *
 * Durability: data files are fsynced before they are referenced, and each directory that gains
 * an entry on the way to a published manifest (including the manifest's own) is fsynced after
 * the rename, so a completed `put`/`completeMultipart` survives power loss. Creating an upload and
 * deleting are not fsynced beyond the rename: losing those to a crash loses no stored object.
 *
 * Limits: writes to the same key at the same time are last-writer-wins and may leave the loser's
 * version folder behind (garbage, never visible). A read streaming an object that is deleted or
 * replaced meanwhile may fail with {@link BlobNotFoundError}; it never yields mixed content.
 */
export function createFsBlobStore(options: FsBlobStoreOptions): BlobStore {
  const root = resolve(options.root);
  const scratchName = `${process.pid}-${randomId().slice(0, 12)}`;
  liveScratch.add(scratchName);
  const dirs = {
    tmp: join(root, 'tmp'),
    uploads: join(root, 'uploads'),
    data: join(root, 'data'),
    objects: join(root, 'objects'),
  };

  let ready: Promise<void> | undefined;
  const init = (): Promise<void> => {
    ready ??= (async () => {
      for (const dir of Object.values(dirs)) await mkdirDurable(dir);
      await removeDeadScratch(dirs.tmp);
      await mkdirDurable(scratch);
    })().catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };

  const manifestPath = (key: string): string => {
    const segments = key.split('/');
    const last = segments.pop() ?? '';
    return join(dirs.objects, ...segments, `${last}.json`);
  };
  const versionPath = (data: string): string => join(dirs.data, ...data.split('/'));
  // Everything this store stages lives in its own scratch folder, so a later start can tell a dead
  // process's leftovers from a live one's work in progress.
  const scratch = join(dirs.tmp, scratchName);
  const tempPath = (suffix = ''): string => join(scratch, randomId() + suffix);

  async function readManifestAt(path: string): Promise<Manifest | null> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return null;
      throw error;
    }
    return parseManifest(text, path);
  }

  /** Moves a finished version folder into `data/`; returns its `data` reference. */
  async function moveIntoData(from: string, versionId: string): Promise<string> {
    const shard = versionId.slice(0, 2);
    await mkdirDurable(join(dirs.data, shard));
    await rename(from, join(dirs.data, shard, versionId));
    await fsyncDir(join(dirs.data, shard));
    return `${shard}/${versionId}`;
  }

  /**
   * Atomically makes `manifest` the object under `key`, then drops the version it replaced.
   * `rollback` runs if publication fails before the commit (the rename); after it, the object is
   * visible and nothing may undo it, so later failures only propagate.
   */
  async function publish(key: string, manifest: Manifest, rollback: () => Promise<unknown>): Promise<void> {
    const path = manifestPath(key);
    const temp = tempPath('.json');
    let previous: Manifest | null;
    try {
      await mkdirDurable(dirname(path));
      await writeNewSmallFile(temp, JSON.stringify(manifest));
      previous = await readManifestAt(path).catch(() => null);
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      await rollback();
      throw error;
    }
    await fsyncDir(dirname(path));
    // Best effort: a failure here leaves garbage, not a broken object.
    if (previous !== null && previous.data !== manifest.data) {
      await removeVersion(previous.data).catch(() => undefined);
    }
  }

  async function removeVersion(data: string): Promise<void> {
    await rm(versionPath(data), { recursive: true, force: true });
  }

  /** The folder of an open upload for `key`; anything else is "no such upload". */
  async function requireUpload(key: string, uploadId: string): Promise<string> {
    if (!RANDOM_ID_PATTERN.test(uploadId)) throw new MultipartUploadNotFoundError(uploadId);
    const dir = join(dirs.uploads, uploadId);
    if ((await readUploadKey(dir)) !== key) throw new MultipartUploadNotFoundError(uploadId);
    return dir;
  }

  async function* readParts(
    manifest: Manifest,
    key: string,
    start: number,
    length: number,
    buffers: ReadBuffers | undefined,
  ) {
    const base = versionPath(manifest.data);
    let partStart = 0;
    for (const part of manifest.parts) {
      const partEnd = partStart + part.size; // exclusive
      const from = Math.max(start, partStart);
      const to = Math.min(start + length, partEnd);
      if (from < to) {
        yield* readFileRange(
          join(base, part.name),
          from - partStart,
          to - from,
          () => new BlobNotFoundError(key),
          buffers,
        );
      }
      partStart = partEnd;
    }
  }

  return {
    open: init,

    async put(key, body, { size }) {
      assertValidKey(key);
      assertValidSize(size);
      await init();
      const versionId = randomId();
      const staging = join(scratch, versionId);
      await mkdir(staging);
      let data: string;
      try {
        await writeNewFile(join(staging, SINGLE_PART_NAME), exactSize(body, size));
        data = await moveIntoData(staging, versionId);
      } catch (error) {
        await rm(staging, { recursive: true, force: true });
        throw error;
      }
      await publish(key, { v: 1, size, data, parts: [{ name: SINGLE_PART_NAME, size }] }, () =>
        removeVersion(data),
      );
    },

    async createMultipart(key) {
      assertValidKey(key);
      await init();
      const uploadId = randomId();
      const dir = join(dirs.uploads, uploadId);
      await mkdir(dir);
      await writeFile(join(dir, UPLOAD_META), JSON.stringify({ key, createdAt: new Date().toISOString() }));
      return { uploadId };
    },

    async uploadPart(key, uploadId, partNumber, body, { size }) {
      assertValidKey(key);
      assertValidPartNumber(partNumber);
      assertValidSize(size);
      await init();
      const dir = await requireUpload(key, uploadId);
      const etag = randomId();
      const name = `${partNumber}.${etag}`;
      const temp = tempPath('.part');
      await writeNewFile(temp, exactSize(body, size));
      try {
        await rename(temp, join(dir, name));
      } catch (error) {
        await rm(temp, { force: true });
        // The upload was aborted or completed while the part was streaming in.
        if (errnoCode(error) === 'ENOENT') throw new MultipartUploadNotFoundError(uploadId);
        throw error;
      }
      await fsyncDir(dir);
      // Older uploads of this part number are now replaced; their etags stop being valid.
      const entries = await readdir(dir).catch(() => []);
      for (const entry of entries) {
        if (entry.startsWith(`${partNumber}.`) && entry !== name) await rm(join(dir, entry), { force: true });
      }
      return { etag };
    },

    async completeMultipart(key, uploadId, parts) {
      assertValidKey(key);
      assertValidPartList(parts);
      await init();
      const source = await requireUpload(key, uploadId);
      for (const { partNumber, etag } of parts) {
        if (!RANDOM_ID_PATTERN.test(etag)) throw new InvalidPartError(`Unknown etag for part ${partNumber}`);
      }
      // Moving the folder first freezes it: a part upload still in flight now fails instead of
      // replacing a part between the check below and publication.
      const versionId = uploadId;
      let data: string;
      try {
        data = await moveIntoData(source, versionId);
      } catch (error) {
        if (errnoCode(error) === 'ENOENT') throw new MultipartUploadNotFoundError(uploadId);
        throw error;
      }
      // On failure the upload stays open, as in S3: the caller may fix the list or re-send parts.
      const restore = () => rename(versionPath(data), source).catch(() => undefined);
      let manifest: Manifest;
      try {
        manifest = await manifestFromParts(versionPath(data), data, parts);
      } catch (error) {
        await restore();
        throw error;
      }
      await publish(key, manifest, restore);
      await fsyncDir(dirs.uploads);
      const listed = new Set(manifest.parts.map((part) => part.name));
      for (const entry of await readdir(versionPath(data)).catch(() => [])) {
        if (!listed.has(entry))
          await rm(join(versionPath(data), entry), { force: true }).catch(() => undefined);
      }
    },

    async abortMultipart(key, uploadId) {
      assertValidKey(key);
      await init();
      if (!RANDOM_ID_PATTERN.test(uploadId)) return;
      const dir = join(dirs.uploads, uploadId);
      if ((await readUploadKey(dir)) !== key) return;
      const trash = tempPath();
      try {
        await rename(dir, trash);
      } catch (error) {
        if (errnoCode(error) === 'ENOENT') return;
        throw error;
      }
      await rm(trash, { recursive: true, force: true });
    },

    async get(key, range?: BlobRange, options?: BlobReadOptions): Promise<BlobReadResult> {
      assertValidKey(key);
      if (range !== undefined) assertWellFormedRange(range);
      await init();
      const manifest = await readManifestAt(manifestPath(key));
      if (manifest === null) throw new BlobNotFoundError(key);
      const totalSize = manifest.size;
      const served = range === undefined ? { start: 0, end: totalSize - 1 } : resolveRange(range, totalSize);
      const size = served.end - served.start + 1;
      return { body: readParts(manifest, key, served.start, size, options?.buffers), size, totalSize };
    },

    async stat(key) {
      assertValidKey(key);
      await init();
      const manifest = await readManifestAt(manifestPath(key));
      return manifest === null ? null : { size: manifest.size };
    },

    async delete(key) {
      assertValidKey(key);
      await init();
      const path = manifestPath(key);
      // Moving the manifest away is the atomic removal; reading the moved copy tells exactly
      // which version this call removed, even with concurrent writers.
      const trash = tempPath('.json');
      try {
        await rename(path, trash);
      } catch (error) {
        if (errnoCode(error) === 'ENOENT') return;
        throw error;
      }
      const manifest = await readManifestAt(trash).catch(() => null);
      await rm(trash, { force: true });
      if (manifest !== null) await removeVersion(manifest.data);
    },
  };
}

async function readUploadKey(uploadDir: string): Promise<string | null> {
  try {
    const meta: unknown = JSON.parse(await readFile(join(uploadDir, UPLOAD_META), 'utf8'));
    return isRecord(meta) && typeof meta.key === 'string' ? meta.key : null;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT' || error instanceof SyntaxError) return null;
    throw error;
  }
}

/** Checks that every listed part exists in the (frozen) version folder, and records sizes. */
async function manifestFromParts(
  dir: string,
  data: string,
  parts: readonly CompletedPart[],
): Promise<Manifest> {
  const entries = await Promise.all(
    parts.map(async ({ partNumber, etag }) => {
      const name = `${partNumber}.${etag}`;
      try {
        return { name, size: (await stat(join(dir, name))).size };
      } catch (error) {
        if (errnoCode(error) === 'ENOENT') {
          throw new InvalidPartError(`Part ${partNumber} with this etag was not uploaded or was replaced`);
        }
        throw error;
      }
    }),
  );
  const size = entries.reduce((sum, part) => sum + part.size, 0);
  return { v: 1, size, data, parts: entries };
}

function parseManifest(text: string, path: string): Manifest {
  const damaged = () => new BlobReadError(`Blob manifest ${path} is damaged`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw damaged();
  }
  if (!isRecord(value) || value.v !== 1 || typeof value.data !== 'string' || !DATA_PATTERN.test(value.data)) {
    throw damaged();
  }
  const { size, parts } = value;
  if (typeof size !== 'number' || !Array.isArray(parts)) throw damaged();
  const checked = parts.map((part: unknown) => {
    if (!isRecord(part) || typeof part.name !== 'string' || !PART_NAME_PATTERN.test(part.name))
      throw damaged();
    if (typeof part.size !== 'number' || !Number.isSafeInteger(part.size) || part.size < 0) throw damaged();
    return { name: part.name, size: part.size };
  });
  if (checked.reduce((sum, part) => sum + part.size, 0) !== size) throw damaged();
  return { v: 1, size, data: value.data, parts: checked };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
