import { describe, expect, it } from 'vitest';
import { createChunkingTransform } from './chunking.transform.js';
import { runTransform, splitBytes } from './testing/stream.helpers.js';

describe('createChunkingTransform', () => {
  it('cuts input into full chunks and a final one, flagging only the last', async () => {
    const seen: [number, boolean, number[]][] = [];
    const transform = createChunkingTransform(3, (bytes, index, isLast) => {
      seen.push([index, isLast, Array.from(bytes)]);
      return Promise.resolve([]);
    });
    await runTransform(
      transform,
      splitBytes(
        Uint8Array.from({ length: 7 }, (_, i) => i),
        () => 2,
      ),
    );
    expect(seen).toEqual([
      [0, false, [0, 1, 2]],
      [1, false, [3, 4, 5]],
      [2, true, [6]],
    ]);
  });

  it('keeps output in chunk order whatever each chunk takes to process', async () => {
    const delays = [30, 0, 10];
    const transform = createChunkingTransform(1, async (bytes, index) => {
      const copy = Uint8Array.from(bytes);
      await new Promise((resolve) => setTimeout(resolve, delays[index] ?? 0));
      return [copy];
    });
    expect(Array.from(await runTransform(transform, [new Uint8Array([7, 8, 9])]))).toEqual([7, 8, 9]);
  });

  it('errors the stream when a chunk fails, also when the consumer has gone away', async () => {
    const failing = createChunkingTransform(2, () => Promise.reject(new Error('boom')));
    await expect(runTransform(failing, [new Uint8Array(5)])).rejects.toThrow('boom');

    // The consumer goes away while a failing chunk is in flight.
    const slowFailure = createChunkingTransform(1, async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      throw new Error('late');
    });
    const writer = slowFailure.writable.getWriter();
    void writer.write(new Uint8Array(3)).catch(() => undefined);
    await slowFailure.readable.cancel();
    await new Promise((resolve) => setTimeout(resolve, 30));
  });
});
