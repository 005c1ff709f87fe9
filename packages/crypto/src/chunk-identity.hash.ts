import { toBufferSource } from './bytes.util.js';

/**
 * Bytes per piece of {@link sha256PieceList}. Small enough that the copy WebCrypto makes of each
 * piece comes from memory the allocator recycles (a copy of 1 MiB or more is mapped afresh, and on
 * a machine that pays ~17 µs per fresh 4 KiB page the copy of a whole 95 MiB chunk costs ~0.4 s).
 */
export const HASH_PIECE_BYTES = 256 * 1024;

/**
 * A SHA-256 identity of `bytes` that never has WebCrypto copy more than {@link HASH_PIECE_BYTES}
 * at once: SHA-256 over the concatenated SHA-256 digests of each 256 KiB piece (the last one
 * shorter). Two inputs with the same result either are equal or give a SHA-256 collision (in the
 * outer digest, or in the digests of one piece), so it tells two chunks apart as well as SHA-256
 * of the whole chunk does. Not interchangeable with plain SHA-256: its results differ.
 */
export async function sha256PieceList(bytes: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  const source = toBufferSource(bytes);
  const pieces = Math.max(1, Math.ceil(source.length / HASH_PIECE_BYTES));
  const digests = new Uint8Array(pieces * 32);
  for (let piece = 0; piece < pieces; piece++) {
    const start = piece * HASH_PIECE_BYTES;
    // One at a time: WebCrypto's copies of the pieces then reuse the same few allocations.
    const digest = await crypto.subtle.digest('SHA-256', source.subarray(start, start + HASH_PIECE_BYTES));
    digests.set(new Uint8Array(digest), piece * 32);
  }
  return new Uint8Array(await crypto.subtle.digest('SHA-256', digests));
}
