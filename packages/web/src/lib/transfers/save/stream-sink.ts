import { downloadMessages } from '@coffer/contracts';
import { movedBuffer, releaseBuffer, slicesOf } from '../buffers';
import { TransferAbortedError } from '../transfer-errors';
import type { SaveSink } from './save-sink';

/**
 * Bytes per queued slice: the browser's download writer takes the body a slice at a time. A whole
 * chunk's slices are views of it, not copies, except the last one; smaller writes are packed into
 * slices of this size (see `createStreamSink`).
 */
export const STREAM_SLICE_BYTES = 1024 * 1024;

/**
 * Packed slices that may wait in the queue together: up to 4 MiB wait for the browser's download
 * writer, which is woken once per batch, not per slice.
 */
const PACKED_SLICES_QUEUED = 4;

export interface StreamSink {
  /** The response body the browser saves. */
  readonly stream: ReadableStream<Uint8Array<ArrayBuffer>>;
  readonly sink: SaveSink;
}

/**
 * The buffers small writes are copied into, reused from write to write. Where WebCrypto's output went
 * to the browser as it was and was freed once taken, every byte of a download was memory the renderer
 * had never touched: Chromium's allocator gave the freed outputs' pages back in batches, and each
 * 4 KiB page of the next outputs was faulted in anew (~260 k page faults per GiB in the service worker,
 * ~5 CPU-seconds on the 2-core benchmark machine). Copied into one of these instead, each output is
 * freed the moment it is copied (its memory is at once reused by the next call), and a buffer the
 * browser has finished with (a later one was taken) comes back here: its memory is moved to a new
 * `ArrayBuffer` (`transfer()`, no copy), so whatever still refers to the old object sees a detached,
 * empty buffer, never new bytes (Chromium's and Firefox's readers take a chunk whole before asking for
 * the next; a reader that did not would fail the download, not save other bytes).
 * Without `ArrayBuffer.prototype.transfer` nothing comes back: each copy is a new buffer.
 */
interface SlicePool {
  /** A buffer of `sliceBytes` to fill: one the browser has finished with, or a new one. */
  take(): ArrayBuffer;
  /** `buffer` (one `take` gave) is no longer read by anyone: it may be reused. */
  reuse(buffer: ArrayBuffer): void;
}

function slicePool(sliceBytes: number): SlicePool {
  const free: ArrayBuffer[] = [];
  return {
    take: () => free.pop() ?? new ArrayBuffer(sliceBytes),
    reuse(buffer) {
      const moved = movedBuffer(buffer);
      if (moved !== null) free.push(moved);
    },
  };
}

/**
 * A save sink that is a readable stream: the download service worker answers the download's
 * navigation with `stream`, and the pipeline running in the same worker writes verified plaintext
 * to `sink`.
 *
 * Each `write` queues the whole chunk at once (as slices that are views of it, nothing copied) and
 * returns, so chunk i + 1 is received while the browser takes chunk i from the queue (both on this
 * worker's thread; while WebCrypto decrypts, synchronously on that thread, only what the browser has
 * already taken drains).
 * The next `write` waits until the browser has taken every slice of the previous chunk, so at most
 * one verified chunk waits for the disk, and a slow disk slows the download instead of filling
 * memory. The last slice of each chunk is a copy of its own: once the browser has taken it, it has
 * finished with every view before it, and the chunk's buffer is freed at that moment (not when the
 * next chunk is written, nor at the next garbage collection), so a chunk the disk took while the
 * next one decrypts no longer counts in that chunk's peak. Writes of one slice or less (the
 * streaming decrypt stage writes each 256 KiB call's output) are copied, one after the other, into a
 * slice of the sink's own, queued once full (or at `close`, or before a whole chunk), and the written
 * bytes are freed at once (see {@link SlicePool}: why). `close` waits until the browser has
 * taken the last slice, then ends the stream (the browser completes the file); `abort` errors it
 * (the browser marks the download failed and deletes the partial file). `onCancel` runs when the
 * user cancels the download in the browser: a waiting `write` then fails with the spec's "Download
 * was aborted".
 */
export function createStreamSink(
  onCancel: () => void,
  options: { readonly sliceBytes?: number } = {},
): StreamSink {
  const sliceBytes = options.sliceBytes ?? STREAM_SLICE_BYTES;
  let controller: ReadableStreamDefaultController<Uint8Array<ArrayBuffer>> | null = null;
  let cancelled = false;
  const pool = slicePool(sliceBytes);
  /**
   * The buffers queued so far that are not freed (or reused) yet; the last one holds the slice queued
   * last. Once the browser has taken that slice, it has finished with every slice before it.
   */
  let queued: { readonly buffer: ArrayBuffer; readonly pooled: boolean }[] = [];
  /** Packed slices queued since the browser last emptied the queue (the cap once a chunk was queued whole). */
  let packedQueued = 0;
  /** The packed slice being filled by small writes, not queued yet. */
  let filling: { readonly buffer: ArrayBuffer; length: number } | null = null;
  /** Closed or errored by us: nothing more may be queued. */
  let ended = false;
  const waiters = new Set<() => void>();
  const wakeAll = (): void => {
    for (const wake of [...waiters]) wake();
  };
  const stream = new ReadableStream<Uint8Array<ArrayBuffer>>(
    {
      start(c) {
        controller = c;
      },
      // Called once the queue is empty (high-water mark 1): the browser has taken the last slice of
      // the queued chunk, so its buffer is freed now, while the next chunk still decrypts.
      pull() {
        const last = queued.pop();
        for (const { buffer, pooled } of queued) {
          if (pooled) pool.reuse(buffer);
          else releaseBuffer(buffer);
        }
        queued = last === undefined ? [] : [last];
        packedQueued = 0;
        wakeAll();
      },
      cancel() {
        cancelled = true;
        wakeAll();
        onCancel();
      },
    },
    new CountQueuingStrategy({ highWaterMark: 1 }),
  );
  const room = async (): Promise<ReadableStreamDefaultController<Uint8Array<ArrayBuffer>>> => {
    for (;;) {
      if (cancelled || ended || controller === null) throw new TransferAbortedError(downloadMessages.aborted);
      if ((controller.desiredSize ?? 0) > 0) return controller;
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          waiters.delete(wake);
          resolve();
        };
        waiters.add(wake);
      });
    }
  };
  /** Queues the packed slice being filled, if any: with the batch, or once the queue is empty. */
  const queueFilling = async (): Promise<void> => {
    const slice = filling;
    if (slice === null) return;
    filling = null;
    const joins = packedQueued > 0 && packedQueued < PACKED_SLICES_QUEUED && !cancelled && !ended;
    const target = joins && controller !== null ? controller : await room();
    const { buffer, length } = slice;
    target.enqueue(new Uint8Array(buffer, 0, length));
    queued.push({ buffer, pooled: true });
    packedQueued++;
  };
  const sink: SaveSink = {
    async write(bytes) {
      if (cancelled || ended) throw new TransferAbortedError(downloadMessages.aborted);
      if (bytes.length <= sliceBytes) {
        // Packed: copied into the slice being filled, which is queued once full; the written buffer
        // is freed now (the sink owns it: SaveSink), the slice's reused once a later one is taken.
        for (let at = 0; at < bytes.length;) {
          filling ??= { buffer: pool.take(), length: 0 };
          const count = Math.min(bytes.length - at, sliceBytes - filling.length);
          new Uint8Array(filling.buffer, filling.length, count).set(bytes.subarray(at, at + count));
          filling.length += count;
          at += count;
          if (filling.length === sliceBytes) await queueFilling();
        }
        releaseBuffer(bytes.buffer);
        return;
      }
      // A chunk queued whole, behind what was packed before it; the next write waits until the
      // browser took all of it.
      await queueFilling();
      const target = await room();
      packedQueued = PACKED_SLICES_QUEUED;
      const slices = [...slicesOf(bytes, sliceBytes)];
      const last = slices.pop();
      for (const slice of slices) target.enqueue(slice);
      queued.push({ buffer: bytes.buffer, pooled: false });
      if (last !== undefined) {
        const own = last.slice();
        target.enqueue(own);
        queued.push({ buffer: own.buffer, pooled: false });
      }
    },
    async close() {
      // The browser has taken every slice before the download counts as complete (and before the
      // page stops keeping this worker alive): a cancel in the browser until then is still an abort.
      await queueFilling();
      (await room()).close();
      ended = true;
      wakeAll();
    },
    abort(reason) {
      filling = null;
      if (!ended && !cancelled) {
        try {
          controller?.error(reason instanceof Error ? reason : new Error('The download stopped'));
        } catch {
          // Already errored.
        }
      }
      ended = true;
      wakeAll();
      return Promise.resolve();
    },
  };
  return { stream, sink };
}
