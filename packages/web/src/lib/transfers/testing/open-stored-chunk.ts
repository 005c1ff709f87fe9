import type { ChunkOpener } from '@coffer/crypto';
import { decryptStored, readBack } from '../download/decrypt';
import {
  OPEN_CALL_BYTES,
  OPEN_SLICE_BYTES,
  ReceivedChunkVerifier,
  storedCiphertext,
} from '../download/verify';

/**
 * For tests: the download's verify and decrypt stages over a chunk stored whole in a Blob, composed
 * as the fetch stage composes them (`download-run.ts`): the chunk's pieces appended to a
 * {@link ReceivedChunkVerifier}, then, once its tag verified, its ciphertext read back and decrypted.
 */

/** A chunk whose tag verified: its ciphertext (no IV, no tag) and the opener that decrypts it. */
export interface VerifiedChunk {
  readonly ciphertext: Blob;
  readonly opener: ChunkOpener;
  readonly sliceBytes: number;
}

/**
 * The verify stage over `chunk` (`iv || ciphertext || tag`), read back `sliceBytes` at a time.
 * @throws {IntegrityError} the chunk is corrupted, truncated, out of place or under another key.
 */
export async function verifyChunk(
  key: CryptoKey,
  index: number,
  isLast: boolean,
  chunk: Blob,
  sliceBytes = OPEN_SLICE_BYTES,
): Promise<VerifiedChunk> {
  const callBytes = Math.min(sliceBytes, OPEN_CALL_BYTES);
  const verifier = new ReceivedChunkVerifier(key, index, isLast, chunk.size, callBytes);
  for await (const slice of readBack(chunk, sliceBytes)) await verifier.append(slice);
  return { ciphertext: storedCiphertext(chunk), opener: await verifier.finish(), sliceBytes };
}

/** The verified chunk's plaintext, one call's slice at a time. */
export function decryptVerified(verified: VerifiedChunk): AsyncGenerator<Uint8Array<ArrayBuffer>> {
  return decryptStored(verified.opener, verified.ciphertext, verified.sliceBytes);
}

/**
 * Verify, then decrypt: the first slice is yielded only after the whole chunk's tag verified.
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
