import { describe, expect, it } from 'vitest';
import { readSlice } from './read-slice';

/** A Blob whose stream yields `pieces` one by one, as a browser streams a file from disk. */
function streamedBlob(pieces: Uint8Array[]): Blob {
  const size = pieces.reduce((sum, piece) => sum + piece.byteLength, 0);
  return {
    size,
    stream: () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const piece of pieces) controller.enqueue(piece);
          controller.close();
        },
      }),
    arrayBuffer: () => Promise.reject(new Error('read as a stream when listened to')),
  } as unknown as Blob;
}

const same = (a: Uint8Array, b: Uint8Array): boolean =>
  a.byteLength === b.byteLength && a.every((value, i) => value === b[i]);

describe('readSlice', () => {
  const bytes = new Uint8Array(10_000).map((_, i) => (i * 31) % 251);
  const pieces = Array.from({ length: 10 }, (_, i) => bytes.subarray(i * 1000, (i + 1) * 1000));

  it('reads the slice whole and reports the bytes read as they arrive', async () => {
    const reports: number[] = [];
    const buffer = await readSlice(streamedBlob(pieces), (read) => reports.push(read));
    expect(same(new Uint8Array(buffer), bytes)).toBe(true);
    expect(reports).toEqual([1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10_000]);
  });

  it('fails when the file changed size while it was read', async () => {
    const shrunk = streamedBlob(pieces.slice(0, 5));
    Object.defineProperty(shrunk, 'size', { value: 10_000 });
    await expect(readSlice(shrunk, () => undefined)).rejects.toThrow('The file shrank while it was read');
  });

  it('reads in one call without a listener', async () => {
    const buffer = await readSlice(new Blob([bytes]).slice(0, 10));
    expect(same(new Uint8Array(buffer), bytes.subarray(0, 10))).toBe(true);
  });
});
