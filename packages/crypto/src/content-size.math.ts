import { assertNonNegativeInteger, assertPositiveInteger } from './bytes.util.js';
import { InvalidArgumentError } from './crypto.errors.js';
import { CHUNK_OVERHEAD, CHUNK_SIZE } from './format.constants.js';

/**
 * Number of chunks a plaintext of `plainSize` bytes is cut into: `max(1, ceil(plainSize / C))`.
 * An empty file is one (empty) chunk.
 */
export function chunkCount(plainSize: number, chunkSize: number = CHUNK_SIZE): number {
  assertNonNegativeInteger(plainSize, 'plainSize');
  assertPositiveInteger(chunkSize, 'chunkSize');
  return Math.max(1, Math.ceil(plainSize / chunkSize));
}

/** Size of the stored object: `plainSize + 28 × max(1, ceil(plainSize / C))`. */
export function encryptedSize(plainSize: number, chunkSize: number = CHUNK_SIZE): number {
  const size = plainSize + CHUNK_OVERHEAD * chunkCount(plainSize, chunkSize);
  if (!Number.isSafeInteger(size)) throw new InvalidArgumentError('encrypted size is not a safe integer');
  return size;
}

/** Plaintext bytes of chunk `index` (from 0): `C` for every chunk but the last. */
export function plainChunkLength(plainSize: number, index: number, chunkSize: number = CHUNK_SIZE): number {
  const count = chunkCount(plainSize, chunkSize);
  assertNonNegativeInteger(index, 'chunk index');
  if (index >= count) {
    throw new InvalidArgumentError(`chunk index ${index} is out of range: the file has ${count} chunks`);
  }
  return index < count - 1 ? chunkSize : plainSize - chunkSize * (count - 1);
}

/**
 * Exact byte length of multipart part `partNumber` (from 1), which is encrypted chunk
 * `partNumber − 1`: its plaintext length + 28. Lets the server check every part it receives.
 */
export function encryptedPartLength(
  plainSize: number,
  partNumber: number,
  chunkSize: number = CHUNK_SIZE,
): number {
  assertPositiveInteger(partNumber, 'partNumber');
  return plainChunkLength(plainSize, partNumber - 1, chunkSize) + CHUNK_OVERHEAD;
}

/**
 * The plaintext size whose stored object is `encryptedSize` bytes, or `null` if no plaintext
 * encrypts to that size (e.g. fewer than 28 bytes, or a last chunk shorter than 28 bytes). The
 * mapping plain → encrypted is strictly increasing, so the answer, when there is one, is unique.
 */
export function plainSizeFromEncrypted(
  encryptedSizeBytes: number,
  chunkSize: number = CHUNK_SIZE,
): number | null {
  assertNonNegativeInteger(encryptedSizeBytes, 'encryptedSize');
  assertPositiveInteger(chunkSize, 'chunkSize');
  if (encryptedSizeBytes < CHUNK_OVERHEAD) return null;
  const fullChunk = chunkSize + CHUNK_OVERHEAD;
  const count = Math.max(1, Math.ceil(encryptedSizeBytes / fullChunk));
  const lastEncrypted = encryptedSizeBytes - (count - 1) * fullChunk;
  // Only a file's single chunk may be empty; an empty trailing chunk is never written.
  if (lastEncrypted < CHUNK_OVERHEAD || (count > 1 && lastEncrypted === CHUNK_OVERHEAD)) return null;
  return encryptedSizeBytes - count * CHUNK_OVERHEAD;
}
