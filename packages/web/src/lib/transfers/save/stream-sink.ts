import { downloadMessages } from '@coffer/contracts';
import { releaseBuffer, slicesOf } from '../buffers';
import { TransferAbortedError } from '../transfer-errors';
import type { SaveSink } from './save-sink';

/**
 * Bytes per queued slice: the browser's download writer takes the body a slice at a time. The
 * slices are views of the chunk, not copies, except the last one (see `createStreamSink`).
 */
export const STREAM_SLICE_BYTES = 512 * 1024;

/**
 * Writes of one slice or less that may wait in the queue together: the decrypt stage writes each
 * 512 KiB call's plaintext, so up to 4 MiB wait for the browser's download writer.
 */
const SMALL_WRITES_QUEUED = 8;

export interface StreamSink {
  /** The response body the browser saves. */
  readonly stream: ReadableStream<Uint8Array<ArrayBuffer>>;
  readonly sink: SaveSink;
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
 * next one decrypts no longer counts in that chunk's peak. A write of one slice or less (the
 * streaming decrypt stage writes each 512 KiB call's output) is queued as it is, no copy, and freed
 * once the browser has taken a slice queued after it. `close` waits until the browser has
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
  /**
   * The buffers queued so far that are not freed yet; the last one holds the slice queued last.
   * Once the browser has taken that slice, it has finished with every slice before it.
   */
  let queued: ArrayBuffer[] = [];
  /** Small writes queued since the browser last emptied the queue (the cap once a chunk was queued whole). */
  let smallQueued = 0;
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
        for (const buffer of queued) releaseBuffer(buffer);
        queued = last === undefined ? [] : [last];
        smallQueued = 0;
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
  const sink: SaveSink = {
    async write(bytes) {
      const small = bytes.length <= sliceBytes;
      // A small write joins the queue while fewer than SMALL_WRITES_QUEUED were queued since the
      // browser last emptied it (the browser is then woken once per batch, not per slice); anything
      // else waits until the queue is empty.
      const joins = small && smallQueued > 0 && smallQueued < SMALL_WRITES_QUEUED && !cancelled && !ended;
      const target = joins && controller !== null ? controller : await room();
      if (small) {
        // One slice (the decrypt stage's 512 KiB calls): queued as it is, freed once a later one is taken.
        target.enqueue(bytes);
        queued.push(bytes.buffer);
        smallQueued++;
        return;
      }
      // A chunk queued whole: the next write waits until the browser took all of it.
      smallQueued = SMALL_WRITES_QUEUED;
      const slices = [...slicesOf(bytes, sliceBytes)];
      const last = slices.pop();
      for (const slice of slices) target.enqueue(slice);
      queued.push(bytes.buffer);
      if (last !== undefined) {
        const own = last.slice();
        target.enqueue(own);
        queued.push(own.buffer);
      }
    },
    async close() {
      // The browser has taken every slice before the download counts as complete (and before the
      // page stops keeping this worker alive): a cancel in the browser until then is still an abort.
      (await room()).close();
      ended = true;
      wakeAll();
    },
    abort(reason) {
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
