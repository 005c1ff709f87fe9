import type { ChunkOpener } from '@coffer/crypto';
import { readSlicesInto } from '../../storage/read-slice';
import { OPEN_CALL_BYTES, OPEN_SLICE_BYTES } from './verify';

/**
 * The download's decrypt stage (docs/transfers.md, "Pipeline"): plaintext, slice by slice, of a
 * chunk that verified, or, where the streaming self-test failed, of one whole-chunk WebCrypto
 * `decrypt` (which verifies the tag before it answers).
 */

/**
 * The plaintext of a verified chunk whose ciphertext is `ciphertext` (read back from its store):
 * read into ONE reused buffer of `readBytes` (a BYOB reader on the Blob's stream, where the browser
 * offers one: no new memory per slice read), decrypted in WebCrypto calls of at most `callBytes`,
 * each call's plaintext yielded (a view of that call's own output, which the caller keeps).
 */
export async function* decryptStored(
  opener: Pick<ChunkOpener, 'decryptSlice'>,
  ciphertext: Blob,
  readBytes = OPEN_SLICE_BYTES,
  callBytes = OPEN_CALL_BYTES,
): AsyncGenerator<Uint8Array<ArrayBuffer>> {
  const calls = Math.min(callBytes, readBytes);
  for await (const slice of readBack(ciphertext, readBytes)) {
    // Every slice but the last fills the buffer, a multiple of 16: each call starts on a counter block.
    let offset = 0;
    do {
      const end = Math.min(slice.length, offset + calls);
      yield await opener.decryptSlice(slice.subarray(offset, end));
      offset = end;
    } while (offset < slice.length);
  }
}

/**
 * `blob`'s bytes in slices of `sliceBytes`, each read into the same buffer through one stream
 * (`readSlicesInto`: a BYOB read where the Blob's stream is a byte stream, as in Chromium, so no
 * new memory per slice), valid until the next slice is asked for.
 */
export function readBack(blob: Blob, sliceBytes: number): AsyncGenerator<Uint8Array> {
  return readSlicesInto(blob, [new ArrayBuffer(Math.min(sliceBytes, blob.size))]);
}

/** The plaintext of a whole-chunk decryption already started (it verified the tag), as one slice. */
export async function* decryptedWhole(
  decrypting: Promise<Uint8Array<ArrayBuffer>>,
): AsyncGenerator<Uint8Array<ArrayBuffer>> {
  yield await decrypting;
}
