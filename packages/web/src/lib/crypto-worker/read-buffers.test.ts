import { describe, expect, it } from 'vitest';
import { createReadBufferPool, type PoolTimers } from './read-buffers';

/** Timers that run only when the test says so. */
function manualTimers(): PoolTimers & { fire(): void; pending: number } {
  const waiting = new Map<number, () => void>();
  let next = 1;
  return {
    set: (run) => {
      waiting.set(next, run);
      return next++;
    },
    clear: (handle) => {
      waiting.delete(handle as number);
    },
    fire() {
      const runs = [...waiting.values()];
      waiting.clear();
      for (const run of runs) run();
    },
    get pending() {
      return waiting.size;
    },
  };
}

describe('read buffer pool', () => {
  it('hands the same memory to the next chunk of the same size or smaller', () => {
    const pool = createReadBufferPool(1000, manualTimers());
    const first = pool.take(100);
    pool.give(first);
    expect(pool.take(100)).toBe(first);
    pool.give(first);
    expect(pool.take(60)).toBe(first);
  });

  it('allocates for a second reader at the same time, and for a larger chunk', () => {
    const pool = createReadBufferPool(1000, manualTimers());
    const a = pool.take(100);
    const b = pool.take(100);
    expect(b).not.toBe(a);
    pool.give(a);
    expect(pool.take(200).byteLength).toBe(200);
  });

  it('frees unused buffers after the idle time, and keeps at most four (two uploads, two each)', () => {
    const timers = manualTimers();
    const pool = createReadBufferPool(1000, timers);
    const buffers = [pool.take(10), pool.take(20), pool.take(30), pool.take(40), pool.take(50)];
    for (const buffer of buffers) pool.give(buffer);
    expect(pool.kept).toBe(4);
    // The smallest went at once (freed, not left to the collector, where `transfer` exists).
    expect(buffers[0]?.byteLength).toBe(0);
    expect(timers.pending).toBe(1);
    timers.fire();
    expect(pool.kept).toBe(0);
    expect(buffers.map((buffer) => buffer.byteLength)).toEqual([0, 0, 0, 0, 0]);
  });

  it('ignores a buffer a BYOB read detached', () => {
    const pool = createReadBufferPool(1000, manualTimers());
    const buffer = pool.take(10);
    structuredClone(buffer, { transfer: [buffer] });
    pool.give(buffer);
    expect(pool.kept).toBe(0);
  });
});
