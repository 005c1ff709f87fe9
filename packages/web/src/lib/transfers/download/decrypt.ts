import { slicesOfBlob } from '../buffers';
import { OPEN_SLICE_BYTES, verifyChunk, type VerifiedChunk } from './verify';

/**
 * The download's decrypt stage (docs/transfers.md, "Pipeline"): plaintext, slice by slice, of a
 * chunk that verified (the same slices the verify pass read), or, where the streaming self-test
 * failed, of one whole-chunk WebCrypto `decrypt` (which verifies the tag before it answers).
 */

/** The verified chunk's plaintext, one slice at a time. */
export async function* decryptVerified(verified: VerifiedChunk): AsyncGenerator<Uint8Array<ArrayBuffer>> {
  for await (const slice of slicesOfBlob(verified.ciphertext, verified.sliceBytes)) {
    yield await verified.opener.decryptSlice(slice);
  }
}

/**
 * Opens one stored chunk in two passes over the same slices: verify (`verify.ts`), then decrypt;
 * the first slice is yielded only after the whole chunk's tag verified.
 * @throws {IntegrityError} before yielding anything, for a chunk that does not verify.
 */
export async function* openChunkInSlices(
  key: CryptoKey,
  index: number,
  isLast: boolean,
  chunk: Blob,
  sliceBytes = OPEN_SLICE_BYTES,
): AsyncGenerator<Uint8Array<ArrayBuffer>> {
  yield* decryptVerified(await verifyChunk(key, index, isLast, chunk, sliceBytes));
}

/** The plaintext of a whole-chunk decryption already started (it verified the tag), as one slice. */
export async function* decryptedWhole(
  decrypting: Promise<Uint8Array<ArrayBuffer>>,
): AsyncGenerator<Uint8Array<ArrayBuffer>> {
  yield await decrypting;
}
