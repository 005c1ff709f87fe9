import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { decryptStream, encryptStream } from './content.streams.js';
import { encryptedSize } from './content-size.math.js';
import { CHUNK_SIZE } from './format.constants.js';
import { generateFileKey } from './file-key.wrap.js';
import { patternBytes } from './testing/stream.helpers.js';

const PIECE = 1 << 20;

/** Plaintext byte at `position`: a 1 MiB random block repeated, with the piece number mixed in. */
function expectedPiece(block: Uint8Array, pieceIndex: number, length: number): Uint8Array {
  const piece = block.slice(0, length);
  piece[0] = pieceIndex & 0xff;
  return piece;
}

describe('round trip with the real chunk size', () => {
  it(
    'encrypts and decrypts C + 1,000,003 bytes (two chunks) in 1 MiB pieces',
    { timeout: 60_000 },
    async () => {
      const fileKey = await generateFileKey();
      const block = patternBytes(PIECE, 42);
      const size = CHUNK_SIZE + 1_000_003;
      const pieceCount = Math.ceil(size / PIECE);

      let produced = 0;
      const source = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (produced === pieceCount) {
            controller.close();
            return;
          }
          const length = Math.min(PIECE, size - produced * PIECE);
          controller.enqueue(expectedPiece(block, produced, length));
          produced++;
        },
      });

      let encryptedBytes = 0;
      const countEncrypted = new TransformStream<Uint8Array, Uint8Array>({
        transform(piece, controller) {
          encryptedBytes += piece.length;
          controller.enqueue(piece);
        },
      });

      // Compare the output against the expected plaintext piece by piece, without holding it all.
      let position = 0;
      let mismatches = 0;
      const reader = source
        .pipeThrough(encryptStream(fileKey))
        .pipeThrough(countEncrypted)
        .pipeThrough(decryptStream(fileKey))
        .getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        let offset = 0;
        while (offset < value.length) {
          const pieceIndex = Math.floor(position / PIECE);
          const within = position % PIECE;
          const take = Math.min(value.length - offset, PIECE - within);
          const expected = expectedPiece(block, pieceIndex, within + take).subarray(within);
          if (Buffer.compare(value.subarray(offset, offset + take), expected) !== 0) mismatches++;
          offset += take;
          position += take;
        }
      }
      expect(mismatches).toBe(0);
      expect(position).toBe(size);
      expect(encryptedBytes).toBe(encryptedSize(size));
    },
  );
});
