import {
  CHUNK_OVERHEAD,
  IntegrityError,
  IV_LENGTH,
  TAG_LENGTH,
  chunkAad,
  createChunkOpener,
} from '@coffer/crypto';

/**
 * Ciphertext bytes per slice when a chunk is verified and decrypted slice by slice: within the
 * 1–4 MiB the streaming computation runs best at, and a multiple of 16 (a slice before the last
 * must be).
 */
export const OPEN_SLICE_BYTES = 4 * 1024 * 1024;

/**
 * Opens one stored chunk (`iv || ciphertext || tag`, kept in a Blob: the browser holds its bytes,
 * on disk when large) in two passes over the same slices, and yields its plaintext slice by slice,
 * ONLY after the whole chunk's tag verified:
 *
 * 1. verify: a GMAC of each ciphertext slice (nothing decrypted), chained into the chunk's tag and
 *    compared with the stored one. A chunk that does not verify throws {@link IntegrityError}
 *    before a single byte of its plaintext exists.
 * 2. decrypt: the same slices again, each turned into plaintext and yielded.
 *
 * GCM is malleable until its tag is checked, so no plaintext of a chunk may reach the user (a saved
 * file, a preview) before the verify pass ended. A Blob cannot change between the passes, so the
 * opener does not recheck each slice (`immutableSource`). No buffer larger than a slice exists on
 * the way. Use only where the streaming self-test passed (`checkStreamingGcm`).
 */
export async function* openChunkInSlices(
  key: CryptoKey,
  index: number,
  isLast: boolean,
  chunk: Blob,
  sliceBytes = OPEN_SLICE_BYTES,
): AsyncGenerator<Uint8Array<ArrayBuffer>> {
  if (chunk.size < CHUNK_OVERHEAD) throw new IntegrityError();
  const cipherLength = chunk.size - CHUNK_OVERHEAD;
  const iv = new Uint8Array(await chunk.slice(0, IV_LENGTH).arrayBuffer());
  const tag = new Uint8Array(await chunk.slice(chunk.size - TAG_LENGTH).arrayBuffer());
  const opener = await createChunkOpener(key, iv, chunkAad(index, isLast), cipherLength, {
    immutableSource: true,
  });
  const ciphertext = chunk.slice(IV_LENGTH, IV_LENGTH + cipherLength);
  if (!(await opener.verifyChunk(slicesOfBlob(ciphertext, sliceBytes), tag))) throw new IntegrityError();
  for await (const slice of slicesOfBlob(ciphertext, sliceBytes)) yield await opener.decryptSlice(slice);
}

/** The Blob's bytes, `sliceBytes` at a time (an empty Blob is one empty slice). */
async function* slicesOfBlob(blob: Blob, sliceBytes: number): AsyncGenerator<Uint8Array> {
  let offset = 0;
  do {
    const end = Math.min(blob.size, offset + sliceBytes);
    yield new Uint8Array(await blob.slice(offset, end).arrayBuffer());
    offset = end;
  } while (offset < blob.size);
}
