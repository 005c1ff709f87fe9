import { IntegrityError } from '@coffer/crypto';
import { describe, expect, it, vi } from 'vitest';
import { ExactReader } from './exact-reader';

/** A stream giving `pieces`; a byte stream (BYOB-readable, as a fetch body) or a default one. */
function streamOf(pieces: number[][], bytes: boolean, onCancel?: () => void): ReadableStream<Uint8Array> {
  const queue = pieces.map((piece) => new Uint8Array(piece));
  if (!bytes) {
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = queue.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(next);
      },
      cancel: onCancel,
    });
  }
  return new ReadableStream({
    type: 'bytes',
    cancel: onCancel,
    pull(controller) {
      const next = queue.shift();
      if (next === undefined) {
        controller.close();
        controller.byobRequest?.respond(0);
      } else controller.enqueue(next);
    },
  });
}

describe.each([
  ['a byte stream (BYOB, read in place)', true],
  ['a default stream (pieces copied)', false],
])('ExactReader over %s', (_name, bytes) => {
  it('cuts pieces of any size into chunks of the exact lengths asked for', async () => {
    const seen: number[] = [];
    const reader = new ExactReader(streamOf([[1, 2], [3, 4, 5, 6, 7], [8], [9, 10]], bytes), (received) =>
      seen.push(received),
    );
    expect(reader.readsInPlace).toBe(bytes);
    expect([...new Uint8Array(await reader.read(3))]).toEqual([1, 2, 3]);
    expect([...new Uint8Array(await reader.read(5))]).toEqual([4, 5, 6, 7, 8]);
    expect([...new Uint8Array(await reader.read(2))]).toEqual([9, 10]);
    await reader.expectEnd();
    expect(seen.at(-1)).toBe(10);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });

  it('reports a stream that ends early as an integrity failure', async () => {
    const reader = new ExactReader(streamOf([[1, 2], [3]], bytes), () => undefined);
    await expect(reader.read(4)).rejects.toBeInstanceOf(IntegrityError);
  });

  it('reports bytes after the last chunk as an integrity failure', async () => {
    const reader = new ExactReader(streamOf([[1, 2, 3]], bytes), () => undefined);
    await reader.read(2);
    await expect(reader.expectEnd()).rejects.toBeInstanceOf(IntegrityError);
  });

  it('cancels the stream', async () => {
    let cancelled = false;
    const reader = new ExactReader(
      streamOf([[1], [2]], bytes, () => {
        cancelled = true;
      }),
      () => undefined,
    );
    await reader.read(1);
    await reader.cancel();
    expect(cancelled).toBe(true);
  });
});

describe('ExactReader.readSlices', () => {
  it.each([true, false])(
    'reads the next slice while the last one is still taken, and reuses a buffer only once its take is done (byte stream: %s)',
    async (bytes) => {
      const reader = new ExactReader(streamOf([[1, 2, 3, 4, 5, 6, 7]], bytes), () => undefined);
      const events: string[] = [];
      const taken: number[][] = [];
      const finishes: (() => void)[] = [];
      const reading = reader.readSlices(7, 2, (slice) => {
        events.push(`take ${String(slice[0])}`);
        taken.push([...slice]);
        return new Promise<void>((resolve) => {
          finishes.push(() => {
            // The slice is intact until its take is done.
            events.push(`done ${String(slice[0])}`);
            resolve();
          });
        });
      });
      await vi.waitFor(() => {
        expect(events).toEqual(['take 1', 'take 3']);
      });
      // Two takes pending: the third slice waits for the first buffer.
      finishes[0]?.();
      await vi.waitFor(() => {
        expect(events).toEqual(['take 1', 'take 3', 'done 1', 'take 5']);
      });
      finishes[1]?.();
      finishes[2]?.();
      await vi.waitFor(() => {
        expect(events.at(-1)).toBe('take 7');
      });
      finishes[3]?.();
      await reading;
      expect(taken).toEqual([[1, 2], [3, 4], [5, 6], [7]]);
    },
  );

  it('throws what a take threw, once no take works on a buffer any more', async () => {
    const reader = new ExactReader(streamOf([[1, 2, 3, 4, 5, 6]], true), () => undefined);
    let pending = 0;
    const reading = reader.readSlices(6, 2, async (slice) => {
      pending++;
      await Promise.resolve();
      pending--;
      if (slice[0] === 3) throw new Error('disk full');
    });
    await expect(reading).rejects.toThrow('disk full');
    expect(pending).toBe(0);
  });
});
