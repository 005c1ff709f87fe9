import type { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import type { ReadBuffers } from '../../infra/storage/read-buffers.js';

/** Bytes buffered ahead of the socket per download beyond the chunk being written: one read of the store. */
const STREAM_HIGH_WATER_MARK = 64 * 1024;

/**
 * Read buffers a download reuses. Piped into a response, a 1 MiB chunk fills the socket's queue past its
 * high-water mark, so the pipe waits for `drain` (the socket empty) before it writes the next: one chunk
 * being written, one queued in the body stream, one being read. The count below guards any other flow.
 */
const RING_SIZE = 3;

/** While a buffer is still being written, how often its lender looks again if no `drain` came. */
const RECHECK_MS = 50;

/**
 * What a download's body is piped into: the `ServerResponse` (or any `Writable`). `writableLength` is
 * the bytes it was given and has not finished writing.
 */
export type BodyDestination = EventEmitter & { readonly writableLength: number; readonly destroyed: boolean };

export class DownloadGoneError extends Error {
  constructor() {
    super('The download was closed before its body was read');
    this.name = 'DownloadGoneError';
  }
}

/**
 * The read buffers of one download, reused in turn once the response has written them.
 *
 * A buffer may be filled again only when no byte of it is still waiting to be written: not in the
 * body stream's queue, not in the response's or the socket's (libuv keeps a reference to a
 * buffer until the kernel took it, and a write's callback comes after). What is waiting is always the
 * newest bytes, so "written" is a count: the bytes pushed, less those still queued in the body
 * stream and in the response (`writableLength`, which counts the socket's queue and headers too: a
 * count that can only be too low, which only makes a buffer wait longer). That count holds only when
 * the body is piped straight into the response: {@link bindTo} is called when it is (the response's
 * `pipe` event), and until then no buffer is handed out twice.
 */
export class ResponseReadBuffers implements ReadBuffers {
  /** Each buffer, and the body offset at which its last chunk ends (`Infinity` while it is out unsent). */
  private readonly slots: { buffer: Uint8Array; end: number }[] = [];
  private next = 0;
  private bound: { destination: BodyDestination; written: () => number; gone: boolean } | null = null;
  /** Buffers allocated: at most {@link RING_SIZE} for a download piped straight into its response. */
  allocated = 0;

  async take(size: number): Promise<Uint8Array> {
    const index = this.next;
    this.next = (index + 1) % RING_SIZE;
    const slot = this.slots[index];
    const bound = this.bound;
    // A destination without a number for what it holds (none today) gets new memory every time.
    const counts = bound !== null && Number.isFinite(bound.destination.writableLength);
    if (slot !== undefined && slot.buffer.byteLength >= size && counts) {
      while (slot.end > bound.written()) await somethingWritten(bound);
      slot.end = Infinity;
      return slot.buffer;
    }
    // The first use of the slot, or unbound (nothing counts what was written): new memory.
    const buffer = Buffer.allocUnsafeSlow(size);
    this.allocated += 1;
    this.slots[index] = { buffer, end: Infinity };
    return buffer;
  }

  /** `chunk` was pushed into the body stream, whose first `end` bytes are now pushed. */
  pushed(chunk: Uint8Array, end: number): void {
    const slot = this.slots.find(({ buffer }) => buffer.buffer === chunk.buffer);
    if (slot !== undefined) slot.end = end;
  }

  /** The body stream `body` is piped straight into `destination`: from now on a buffer may be reused. */
  bindTo(body: DownloadBodyStream, destination: BodyDestination): void {
    const bound = {
      destination,
      written: () => body.pushedBytes - body.readableLength - destination.writableLength,
      gone: false,
    };
    destination.once('close', () => {
      bound.gone = true;
    });
    this.bound = bound;
  }
}

/** Resolves when `destination` drained, or after {@link RECHECK_MS}; rejects once it has closed. */
function somethingWritten(bound: { destination: BodyDestination; gone: boolean }): Promise<void> {
  const { destination } = bound;
  const gone = () => bound.gone || destination.destroyed;
  if (gone()) return Promise.reject(new DownloadGoneError());
  return new Promise((resolve, reject) => {
    const settle = () => {
      clearTimeout(timer);
      destination.off('drain', settle);
      destination.off('close', settle);
      if (gone()) reject(new DownloadGoneError());
      else resolve();
    };
    const timer = setTimeout(settle, RECHECK_MS).unref();
    destination.once('drain', settle);
    destination.once('close', settle);
  });
}

/**
 * A download's body as the `Readable` the response is piped from: pulls `body` one chunk at a time
 * and tells `buffers` where each chunk ends. Destroying it (the client went away) closes `body`.
 */
export class DownloadBodyStream extends Readable {
  private readonly chunks: AsyncIterator<Uint8Array>;
  pushedBytes = 0;

  constructor(
    body: AsyncIterable<Uint8Array>,
    private readonly buffers?: ResponseReadBuffers,
  ) {
    super({ highWaterMark: STREAM_HIGH_WATER_MARK });
    this.chunks = body[Symbol.asyncIterator]();
  }

  override _read(): void {
    this.chunks.next().then(
      ({ done, value }) => {
        if (done) {
          this.push(null);
          return;
        }
        this.pushedBytes += value.byteLength;
        this.buffers?.pushed(value, this.pushedBytes);
        this.push(value);
      },
      (error: unknown) => {
        this.destroy(error instanceof Error ? error : new Error(String(error)));
      },
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const closing = this.chunks.return?.();
    if (closing === undefined) {
      callback(error);
      return;
    }
    closing.then(
      () => {
        callback(error);
      },
      (closeError: unknown) => {
        callback(error ?? (closeError as Error));
      },
    );
  }
}

/**
 * The stream to answer with: `body` read into `buffers`, which are reused once the response is seen
 * to be piped from this very stream (and never otherwise: an `onSend` hook that wrapped it would
 * hide what was written).
 */
export function downloadBodyFor(
  response: BodyDestination,
  body: AsyncIterable<Uint8Array>,
  buffers: ResponseReadBuffers,
): DownloadBodyStream {
  const stream = new DownloadBodyStream(body, buffers);
  response.once('pipe', (source: unknown) => {
    if (source === stream) buffers.bindTo(stream, response);
  });
  return stream;
}
