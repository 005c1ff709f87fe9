import { BlobReadError, BlobSizeMismatchError } from './blob-store.js';

/**
 * Reads and writes move data in 1 MiB pieces: few enough system calls to stream GiB-size objects
 * quickly, small enough that a transfer holds only a couple of them at a time.
 */
export const IO_CHUNK_SIZE = 1024 * 1024;

const sizeMismatch = (expected: number, actual: number): Error => new BlobSizeMismatchError(expected, actual);

/**
 * Passes `source` through, failing with {@link BlobSizeMismatchError} as soon as it yields more
 * than `size` bytes (the offending chunk is not passed on) or when it ends short. A consumer that
 * writes what it receives therefore never writes more than `size` bytes, and one that only
 * commits after the iteration finishes never commits a wrong size. `onMismatch` builds the error.
 */
export async function* exactSize(
  source: AsyncIterable<Uint8Array>,
  size: number,
  onMismatch: (expected: number, actual: number) => Error = sizeMismatch,
): AsyncGenerator<Uint8Array> {
  let seen = 0;
  for await (const chunk of source) {
    seen += chunk.byteLength;
    if (seen > size) throw onMismatch(size, seen);
    if (chunk.byteLength > 0) yield chunk;
  }
  if (seen !== size) throw onMismatch(size, seen);
}

/**
 * Skips `skip` bytes of `source`, then yields exactly `take` bytes and stops reading (which
 * closes the source). Fails with {@link BlobReadError} if the source ends before that.
 */
export async function* sliceBytes(
  source: AsyncIterable<Uint8Array>,
  skip: number,
  take: number,
): AsyncGenerator<Uint8Array> {
  let toSkip = skip;
  let toTake = take;
  if (toTake === 0) return;
  for await (const chunk of source) {
    let piece = chunk;
    if (toSkip > 0) {
      if (piece.byteLength <= toSkip) {
        toSkip -= piece.byteLength;
        continue;
      }
      piece = piece.subarray(toSkip);
      toSkip = 0;
    }
    if (piece.byteLength >= toTake) {
      yield piece.subarray(0, toTake);
      return;
    }
    toTake -= piece.byteLength;
    if (piece.byteLength > 0) yield piece;
  }
  throw new BlobReadError(`Blob stream ended ${toTake} bytes early`);
}
