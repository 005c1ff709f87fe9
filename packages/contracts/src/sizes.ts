import { CHUNK_OVERHEAD_BYTES, CHUNK_SIZE } from './constants.js';

/**
 * Sizes of the coffer-v1 stored object, so the server can check every multipart part and
 * the total against the declared plaintext size. An empty file is one empty chunk.
 */
export function chunkCountFor(plaintextSize: number): number {
  return Math.max(1, Math.ceil(plaintextSize / CHUNK_SIZE));
}

/** Size of the stored (encrypted) object: plaintext + 28 bytes per chunk. */
export function encryptedSizeFor(plaintextSize: number): number {
  return plaintextSize + CHUNK_OVERHEAD_BYTES * chunkCountFor(plaintextSize);
}

/**
 * Exact byte length of multipart part `partNumber` (from 1), which is encrypted chunk
 * partNumber - 1; null when the file has no such part.
 */
export function encryptedPartSizeFor(plaintextSize: number, partNumber: number): number | null {
  const count = chunkCountFor(plaintextSize);
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > count) return null;
  const plain = partNumber < count ? CHUNK_SIZE : plaintextSize - CHUNK_SIZE * (count - 1);
  return plain + CHUNK_OVERHEAD_BYTES;
}
