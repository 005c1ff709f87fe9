/**
 * Chunk-sized buffers on the page and in the crypto worker. A chunk is ~95 MiB: copying one in a
 * single step blocks a thread for 50–400 ms, and waiting for the garbage collector to free one can
 * leave several alive at once. So chunks are handed on in slices, and freed as soon as used.
 */

/** Bytes handled per step: a few milliseconds of copying, never a long task. */
export const SLICE_BYTES = 8 * 1024 * 1024;

/** An `ArrayBuffer` with ES2024's `transfer` and `detached`, where the browser has them. */
type Movable = ArrayBufferLike & { transfer?: (newLength?: number) => ArrayBuffer; detached?: boolean };

/**
 * `buffer`'s memory under a new `ArrayBuffer` (`transfer()`: no copy), `buffer` itself left detached
 * (empty) for whoever still refers to it; null where the browser has no `transfer` or `buffer` is
 * detached already.
 */
export function movedBuffer(buffer: ArrayBuffer): ArrayBuffer | null {
  const movable = buffer as Movable;
  if (typeof movable.transfer !== 'function' || movable.detached === true) return null;
  return movable.transfer();
}

/**
 * Frees a buffer's memory now instead of at the next garbage collection. Only for buffers nothing
 * else reads any more (a Blob, a file or the browser's download has already taken the bytes).
 *
 * The buffer is transferred in a message to a port whose other end is closed: the browser drops
 * the message, and the memory with it. `transfer(0)` (ES2024) is not enough for every buffer: it
 * detaches the JavaScript object, but where the browser made the buffer itself, as WebCrypto does
 * for every output, Chromium's own wrapper keeps the memory until its collector runs (measured in
 * session 13: +1.00 chunk after `transfer(0)` of a 95 MiB `decrypt` output, +0.00 after the
 * message, in a page of Chromium 156; a buffer made by `new ArrayBuffer` is freed by either).
 * `transfer(0)` remains the fallback where messages cannot carry it (no `MessageChannel`, or a
 * buffer that cannot be transferred); where neither exists the buffer is left to the collector.
 */
export function releaseBuffer(buffer: ArrayBufferLike): void {
  const movable = buffer as Movable;
  if (movable.detached === true) return;
  if (typeof MessageChannel === 'function' && buffer instanceof ArrayBuffer) {
    const channel = new MessageChannel();
    try {
      channel.port2.close();
      channel.port1.postMessage(null, [buffer]);
    } catch {
      // Not transferable here: the fallback below.
    } finally {
      channel.port1.close();
    }
    if (buffer.byteLength === 0) return;
  }
  if (typeof movable.transfer === 'function') movable.transfer(0);
}

/**
 * Lets the page run its other tasks (input, paint, timers) between two steps of long work: the
 * continuation is queued behind them as an ordinary task. Not `setTimeout`, which browsers throttle
 * to once a second or less in background tabs (transfers must not slow down when the user
 * switches tabs), and not `scheduler.yield()`, whose continuation runs ahead of waiting timers.
 */
export function yieldToPage(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** Views of `bytes`, `size` bytes each (the last one shorter); nothing is copied. */
export function* slicesOf(
  bytes: Uint8Array<ArrayBuffer>,
  size = SLICE_BYTES,
): Generator<Uint8Array<ArrayBuffer>> {
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
}

/**
 * Copies `bytes` into Blobs of at most {@link SLICE_BYTES}, yielding to the page in between;
 * `beforeEach` runs before every slice after the first (e.g. to stop when a transfer is aborted).
 */
export async function blobPartsOf(
  bytes: Uint8Array<ArrayBuffer>,
  beforeEach: () => void = () => undefined,
): Promise<Blob[]> {
  const parts: Blob[] = [];
  for (const slice of slicesOf(bytes)) {
    if (parts.length > 0) {
      await yieldToPage();
      beforeEach();
    }
    parts.push(new Blob([slice]));
  }
  return parts;
}
