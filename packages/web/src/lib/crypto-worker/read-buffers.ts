import { releaseBuffer } from '../transfers/buffers';

/**
 * How long an unused read buffer is kept. The next chunk of an upload is read as soon as the
 * previous part has been sent, so a buffer waits about one part's upload time; a part that takes
 * longer than this (a network slower than ~10 MB/s) makes the next read allocate afresh, which
 * costs ~0.4 s on the slowest machine we measured: under 4 % of such a part.
 */
export const READ_BUFFER_IDLE_MS = 10_000;

/**
 * Two uploads may read at once, each with two slice buffers (one read while the other is sealed)
 * or one chunk-sized buffer where chunks are sealed whole; buffers beyond these are freed.
 */
const MAX_KEPT = 4;

/**
 * The crypto worker's chunk-sized read buffers, reused from chunk to chunk of an upload: WebCrypto
 * copies its input when `encrypt` is called, so once a chunk's encryption and hash have been
 * started the same memory can receive the next chunk. Unused buffers are freed after
 * {@link READ_BUFFER_IDLE_MS} (`releaseBuffer`, not left to the collector), so an idle worker holds
 * none.
 */
export interface ReadBufferPool {
  /** A buffer of at least `size` bytes, reused where one is free. */
  take(size: number): ArrayBuffer;
  /** Returns a buffer for reuse (a detached one is ignored). */
  give(buffer: ArrayBuffer): void;
  /** Buffers kept for reuse (tests). */
  readonly kept: number;
}

export interface PoolTimers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: PoolTimers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};

export function createReadBufferPool(
  idleMs = READ_BUFFER_IDLE_MS,
  timers: PoolTimers = realTimers,
): ReadBufferPool {
  let free: ArrayBuffer[] = [];
  let idle: unknown = null;
  const releaseAll = (): void => {
    idle = null;
    for (const buffer of free) releaseBuffer(buffer);
    free = [];
  };
  const restartIdle = (): void => {
    if (idle !== null) timers.clear(idle);
    idle = free.length === 0 ? null : timers.set(releaseAll, idleMs);
  };
  return {
    take(size) {
      const at = free.findIndex((buffer) => buffer.byteLength >= size);
      const buffer = at < 0 ? new ArrayBuffer(size) : free.splice(at, 1)[0];
      restartIdle();
      return buffer ?? new ArrayBuffer(size);
    },
    give(buffer) {
      if (buffer.byteLength === 0) return;
      free.push(buffer);
      // Keep the largest: a last chunk's smaller buffer cannot hold the next upload's chunks.
      free.sort((a, b) => b.byteLength - a.byteLength);
      for (const extra of free.splice(MAX_KEPT)) releaseBuffer(extra);
      restartIdle();
    },
    get kept() {
      return free.length;
    },
  };
}
