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
  if (buffer instanceof ArrayBuffer) {
    const drop = dropPort();
    if (drop !== null) {
      try {
        drop.postMessage(null, [buffer]);
      } catch {
        // Not transferable here: the fallback below.
      }
      if (buffer.byteLength === 0) return;
    }
  }
  if (typeof movable.transfer === 'function') movable.transfer(0);
}

/**
 * The port `releaseBuffer` posts to, one per realm: its other end is closed, so every message
 * (and the memory it carries) is dropped. One channel, not one per release: a `MessageChannel` is
 * a pair of browser objects (and a pipe) that only the collector frees, which in a busy worker does
 * not run for minutes. Measured (Chromium 156, a worker releasing 16,000 buffers of 256 KiB, as a
 * 4 GiB upload's seal calls do): a channel each +52 MiB in the renderer process, one channel +18 MiB
 * (WebCrypto's results alike: +72 against +36 MiB); a 95 MiB buffer posted to the one port is freed
 * at once as before (20 in a row: +4 MiB). Null without `MessageChannel`.
 */
function dropPort(): MessagePort | null {
  if (typeof MessageChannel !== 'function') return null;
  if (droppingPort === null) {
    const channel = new MessageChannel();
    channel.port2.close();
    // Node's ports keep its event loop running unless told not to (tests).
    (channel.port1 as MessagePort & { unref?: () => void }).unref?.();
    droppingPort = channel.port1;
  }
  return droppingPort;
}

let droppingPort: MessagePort | null = null;

/** Bytes of the untouched buffer {@link askForCollection} makes and drops. */
export const COLLECTION_HINT_BYTES = 64 * 1024 * 1024;

/**
 * Asks the engine for a garbage collection soon, without waiting for one: makes and drops an
 * `ArrayBuffer` of 64 MiB that is never written (the system maps such memory lazily: no page of it
 * is touched). Engines count a buffer's size towards their next collection (V8 as external memory,
 * past a limit of 64 MiB since the last one; SpiderMonkey as malloc'd bytes), so a worker whose
 * own heap barely grows gets its collection anyway. Why a transfer needs one: every WebCrypto call,
 * Blob read and message leaves a few KiB of browser objects (promises, result holders, readers)
 * that only a full collection frees, and a worker that frees its buffers at once
 * (`releaseBuffer`) allocates too little of its own heap to ever run one: a 4 GiB upload's
 * ~33,000 WebCrypto calls left +70 MiB in the page's process, growing with the file. Measured
 * (Chromium 156, a worker doing a seal call of 256 KiB and a digest per step, as uploads do):
 * 16,000 steps +50 MiB without this, +19 with it once per 380 steps (one chunk); 64,000 steps
 * +92 and +34 MiB, and faster with it (22.8 against 27.0 s). Call it once per chunk.
 */
export function askForCollection(): void {
  // The last hint goes first, so two never exist at once.
  collectionHint.buffer = null;
  try {
    collectionHint.buffer = new ArrayBuffer(COLLECTION_HINT_BYTES);
  } catch {
    // No room for 64 MiB of address space (a small device): a hint only, the transfer goes on.
  }
}

/**
 * Where {@link askForCollection} keeps its buffer until the next call: the bundler marks
 * `new ArrayBuffer` pure and drops one that is never stored where it could be read (seen in the
 * built worker), so it lives on an exported object. Tests read it.
 */
export const collectionHint: { buffer: ArrayBuffer | null } = { buffer: null };

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
