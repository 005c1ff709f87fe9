import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { filesUnder } from '../helpers/files.js';

/**
 * The fs blob store's layout (packages/server/src/infra/storage/blob-store.fs.ts): an object is
 * published as `objects/<key>.json`, a manifest naming its version folder `data/<shard>/<id>/` and
 * the files there whose concatenation is the object. A multipart object keeps one file per part,
 * and part n is encrypted chunk n−1.
 */
interface Manifest {
  size: number;
  data: string;
  parts: { name: string; size: number }[];
}

/** The manifest of the one stored object of exactly `size` bytes. */
async function manifestOfSize(blobsDir: string, size: number): Promise<Manifest> {
  const found: Manifest[] = [];
  for (const path of await filesUnder(join(blobsDir, 'objects'))) {
    if (!path.endsWith('.json')) continue;
    const manifest = JSON.parse(await readFile(path, 'utf8')) as Manifest;
    if (manifest.size === size) found.push(manifest);
  }
  const [manifest] = found;
  if (manifest === undefined || found.length !== 1)
    throw new Error(`expected one stored object of ${size} bytes, found ${found.length}`);
  return manifest;
}

/**
 * Flips one byte of encrypted chunk `chunkIndex` of the stored object of `storedSize` bytes, in its
 * ciphertext (past the 12-byte IV, before the 16-byte tag), as an attacker with the disk would.
 */
export async function tamperStoredChunk(
  blobsDir: string,
  storedSize: number,
  chunkIndex: number,
): Promise<void> {
  const manifest = await manifestOfSize(blobsDir, storedSize);
  const part = manifest.parts[chunkIndex];
  if (part === undefined)
    throw new Error(`the object has ${manifest.parts.length} parts, not chunk ${chunkIndex}`);
  const handle = await open(join(blobsDir, 'data', manifest.data, part.name), 'r+');
  try {
    const at = Math.floor(part.size / 2);
    const byte = Buffer.alloc(1);
    await handle.read(byte, 0, 1, at);
    byte[0] = (byte[0] ?? 0) ^ 0x01;
    await handle.write(byte, 0, 1, at);
  } finally {
    await handle.close();
  }
}
