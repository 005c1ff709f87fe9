import { ChunkBuffer } from './chunk.buffer.js';
import { InvalidArgumentError } from './crypto.errors.js';

/** Turns chunk `index` (whose bytes are only valid during the call) into the pieces to emit. */
export type ChunkProcessor = (bytes: Uint8Array, index: number, isLast: boolean) => Promise<Uint8Array[]>;

/**
 * A transform that cuts its input into chunks of exactly `size` bytes and a final chunk of at most
 * `size` bytes (possibly empty), and hands each to `processChunk`, one at a time, in order.
 *
 * A chunk is known not to be the last only once a byte after it has arrived, so a full chunk is
 * held until then; at the end of input the held chunk is processed as the last.
 *
 * Chunks are deliberately not pipelined (collecting chunk i + 1 while chunk i is encrypted): that
 * would keep chunk i's output alive while chunk i + 1 is processed, one more chunk of memory for
 * a gain that the benchmark could not separate from noise.
 */
export function createChunkingTransform(
  size: number,
  processChunk: ChunkProcessor,
): TransformStream<Uint8Array, Uint8Array> {
  const buffer = new ChunkBuffer(size);
  let index = 0;

  const emit = async (
    bytes: Uint8Array,
    isLast: boolean,
    controller: TransformStreamDefaultController<Uint8Array>,
  ): Promise<void> => {
    const pieces = await processChunk(bytes, index, isLast);
    index++;
    for (const piece of pieces) controller.enqueue(piece);
  };

  return new TransformStream<Uint8Array, Uint8Array>({
    async transform(piece, controller) {
      if (!(piece instanceof Uint8Array))
        throw new InvalidArgumentError('stream input must be Uint8Array pieces');
      let offset = 0;
      while (offset < piece.length) {
        if (buffer.isFull) {
          // More input exists, so the held chunk is not the last one.
          await emit(buffer.view(), false, controller);
          buffer.clear();
        }
        if (buffer.filled === 0 && piece.length - offset > size) {
          // A whole chunk with more bytes after it inside this piece: process it in place, no copy.
          await emit(piece.subarray(offset, offset + size), false, controller);
          offset += size;
        } else {
          offset += buffer.fill(piece.subarray(offset));
        }
      }
    },
    async flush(controller) {
      await emit(buffer.view(), true, controller);
    },
  });
}
