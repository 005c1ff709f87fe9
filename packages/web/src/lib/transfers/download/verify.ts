import {
  CHUNK_OVERHEAD,
  IntegrityError,
  IV_LENGTH,
  TAG_LENGTH,
  chunkAad,
  createChunkOpener,
  type ChunkOpener,
} from '@coffer/crypto';
import { slicesOfBlob } from '../buffers';

/**
 * Ciphertext bytes per slice when a chunk is verified and decrypted slice by slice: within the
 * 1–4 MiB the streaming computation runs best at, and a multiple of 16 (a slice before the last
 * must be).
 */
export const OPEN_SLICE_BYTES = 4 * 1024 * 1024;

/** A chunk whose tag verified: only now may its plaintext exist (`decrypt.ts`). */
export interface VerifiedChunk {
  /** The chunk's ciphertext without IV and tag, read again slice by slice to decrypt it. */
  readonly ciphertext: Blob;
  /** The opener whose verify pass matched the stored tag. */
  readonly opener: ChunkOpener;
  readonly sliceBytes: number;
}

/**
 * The download's verify stage (docs/transfers.md, "Pipeline"): one stored chunk (`iv || ciphertext
 * || tag`, kept in a Blob: the browser holds its bytes, on disk when large) checked whole before any
 * of it is decrypted: a GMAC of each ciphertext slice (nothing decrypted), chained into the chunk's
 * tag and compared with the stored one. GCM is malleable until its tag is checked, so no plaintext
 * of a chunk may reach the user before this returned. A Blob cannot change between the passes, so
 * the opener does not recheck each slice (`immutableSource`). No buffer larger than a slice exists.
 * Use only where the streaming self-test passed (`checkStreamingGcm`).
 * @throws {IntegrityError} the chunk is corrupted, truncated, out of place or under another key.
 */
export async function verifyChunk(
  key: CryptoKey,
  index: number,
  isLast: boolean,
  chunk: Blob,
  sliceBytes = OPEN_SLICE_BYTES,
): Promise<VerifiedChunk> {
  if (chunk.size < CHUNK_OVERHEAD) throw new IntegrityError();
  const cipherLength = chunk.size - CHUNK_OVERHEAD;
  const iv = new Uint8Array(await chunk.slice(0, IV_LENGTH).arrayBuffer());
  const tag = new Uint8Array(await chunk.slice(chunk.size - TAG_LENGTH).arrayBuffer());
  const opener = await createChunkOpener(key, iv, chunkAad(index, isLast), cipherLength, {
    immutableSource: true,
  });
  const ciphertext = chunk.slice(IV_LENGTH, IV_LENGTH + cipherLength);
  if (!(await opener.verifyChunk(slicesOfBlob(ciphertext, sliceBytes), tag))) throw new IntegrityError();
  return { ciphertext, opener, sliceBytes };
}
