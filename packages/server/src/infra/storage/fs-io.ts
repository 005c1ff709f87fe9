import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { BlobReadError } from './blob-store.js';
import { IO_CHUNK_SIZE } from './byte-streams.js';
import type { ReadBuffers } from './read-buffers.js';

/** 128 random bits as hex: upload ids, etags and version ids, unguessable and file-name safe. */
export function randomId(): string {
  return randomBytes(16).toString('hex');
}

export const RANDOM_ID_PATTERN = /^[0-9a-f]{32}$/;

export function errnoCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/**
 * Streams `body` into a new file at `path` (which must not exist), with backpressure, then
 * fsyncs it so the bytes are on disk before anything refers to the file. On any failure the file
 * is removed and the error rethrown.
 */
export async function writeNewFile(path: string, body: AsyncIterable<Uint8Array>): Promise<void> {
  // `flush` fsyncs before the close that ends the pipeline.
  const file = createWriteStream(path, { flags: 'wx', flush: true, highWaterMark: IO_CHUNK_SIZE });
  try {
    await pipeline(body, file);
  } catch (error) {
    // The file may still be opening; removing it before it is closed could leave it behind.
    if (!file.closed) await once(file, 'close').catch(() => undefined);
    await rm(path, { force: true });
    throw error;
  }
}

/** Writes a small document to a new file and fsyncs it; removes the file on failure. */
export async function writeNewSmallFile(path: string, text: string): Promise<void> {
  const handle = await open(path, 'wx');
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(path, { force: true });
    throw error;
  }
  await handle.close();
}

/**
 * Makes a rename or a new entry in `dir` durable. Linux needs this; platforms that cannot open
 * or fsync a directory do not, so those errors are ignored. A directory that has gone away
 * (moved by a concurrent operation) has nothing left to make durable here.
 */
export async function fsyncDir(dir: string): Promise<void> {
  let handle: FileHandle;
  try {
    handle = await open(dir, 'r');
  } catch (error) {
    if (['EISDIR', 'EPERM', 'EACCES', 'ENOENT'].includes(errnoCode(error) ?? '')) return;
    throw error;
  }
  try {
    await handle.sync();
  } catch (error) {
    if (!['EINVAL', 'EBADF', 'EPERM', 'ENOTSUP'].includes(errnoCode(error) ?? '')) throw error;
  } finally {
    await handle.close();
  }
}

/** `mkdir -p`, then fsyncs every directory that gained an entry, so the new path survives a crash. */
export async function mkdirDurable(dir: string): Promise<void> {
  const firstCreated = await mkdir(dir, { recursive: true });
  if (firstCreated === undefined) return;
  for (let current = dir; ; current = dirname(current)) {
    await fsyncDir(dirname(current));
    if (current === firstCreated || dirname(current) === current) return;
  }
}

/**
 * Yields `length` bytes of the file at `path` from `start`. The file is opened lazily (when the
 * consumer first asks) and closed when the read ends, fails or the consumer stops early.
 * `onMissing` turns a vanished file into the caller's error. With `buffers`, each piece is read into
 * a buffer taken from them (reused by a consumer that says when it is done with one); without, into
 * a new one each time.
 */
export async function* readFileRange(
  path: string,
  start: number,
  length: number,
  onMissing: () => Error,
  buffers?: ReadBuffers,
): AsyncGenerator<Uint8Array> {
  if (length === 0) return;
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw errnoCode(error) === 'ENOENT' ? onMissing() : error;
  }
  let seen = 0;
  for await (const chunk of buffers === undefined
    ? readStreamed(handle, start, length)
    : readInto(handle, start, length, buffers)) {
    seen += chunk.byteLength;
    yield chunk;
  }
  if (seen !== length) throw new BlobReadError(`${path} is ${length - seen} bytes shorter than recorded`);
}

async function* readStreamed(handle: FileHandle, start: number, length: number): AsyncGenerator<Uint8Array> {
  // The stream reads ahead one chunk while the consumer handles the previous one.
  const stream = handle.createReadStream({ start, end: start + length - 1, highWaterMark: IO_CHUNK_SIZE });
  try {
    yield* stream as AsyncIterable<Buffer>;
  } finally {
    stream.destroy();
  }
}

async function* readInto(
  handle: FileHandle,
  start: number,
  length: number,
  buffers: ReadBuffers,
): AsyncGenerator<Uint8Array> {
  try {
    for (let position = start, end = start + length; position < end;) {
      const want = Math.min(IO_CHUNK_SIZE, end - position);
      const buffer = await buffers.take(want);
      const { bytesRead } = await handle.read(buffer, 0, want, position);
      if (bytesRead === 0) return;
      position += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/** Removes direct children of `dir` not modified for `maxAgeMs`: leftovers of a crashed process. */
export async function removeStaleEntries(
  dir: string,
  maxAgeMs: number,
  select: (name: string) => boolean = () => true,
): Promise<void> {
  const cutoff = Date.now() - maxAgeMs;
  for (const name of await readdir(dir)) {
    if (!select(name)) continue;
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (info !== undefined && info.mtimeMs < cutoff) await rm(path, { recursive: true, force: true });
  }
}
