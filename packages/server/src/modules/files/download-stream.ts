import { once } from 'node:events';
import type { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import type { ReadBuffers } from '../../infra/storage/read-buffers.js';

/** Bytes buffered ahead of the socket per download beyond the chunk being written: one read of the store. */
const STREAM_HIGH_WATER_MARK = 64 * 1024;

/** Read buffers a download reuses: one being written, one queued, one being read, one spare. */
const RING_SIZE = 4;

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
  private readonly buffers: (Uint8Array | undefined)[] = new Array(RING_SIZE);
  /** Per buffer: the body offset at which its last chunk ends, `Infinity` while it is out unsent. */
  private readonly ends: number[] = new Array<number>(RING_SIZE).fill(0);
  private next = 0;
  private written: (() => number) | null = null;
  private response: BodyDestination | null = null;
  private gone = false;
  /** Buffers allocated: at most {@link RING_SIZE} for a download piped straight into its response. */
  allocated = 0;

  async take(size: number): Promise<Uint8Array> {
    const slot = this.next;
    this.next = (slot + 1) % RING_SIZE;
    const buffer = this.buffers[slot];
    if (buffer !== undefined && buffer.byteLength >= size && this.written !== null) {
      while (this.ends[slot]! > this.written()) await this.somethingWritten();
      this.ends[slot] = Infinity;
      return buffer;
    }
    // Unbound (nothing counts what was written), or the first use of the slot: new memory.
    const fresh = Buffer.allocUnsafeSlow(size);
    this.allocated += 1;
    this.buffers[slot] = fresh;
    this.ends[slot] = Infinity;
    return fresh;
  }

  /** `chunk` was pushed into the body stream, whose first `end` bytes are now pushed. */
  pushed(chunk: Uint8Array, end: number): void {
    const slot = this.buffers.findIndex((buffer) => buffer !== undefined && buffer.buffer === chunk.buffer);
    if (slot !== -1) this.ends[slot] = end;
  }

  /** The body stream `body` is piped straight into `response`: from now on a buffer may be reused. */
  bindTo(body: DownloadBodyStream, response: BodyDestination): void {
    this.response = response;
    this.written = () => body.pushedBytes - body.readableLength - response.writableLength;
    response.once('close', () => {
      this.gone = true;
    });
  }

  private async somethingWritten(): Promise<void> {
    const response = this.response!;
    if (this.gone || response.destroyed) throw new DownloadGoneError();
    const stop = new AbortController();
    try {
      await Promise.race([
        once(response, 'drain', { signal: stop.signal }),
        once(response, 'close', { signal: stop.signal }),
        new Promise((resolve) => setTimeout(resolve, RECHECK_MS).unref()),
      ]);
    } finally {
      stop.abort();
    }
    if (this.gone || response.destroyed) throw new DownloadGoneError();
  }
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
      (error: unknown) => this.destroy(error instanceof Error ? error : new Error(String(error))),
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const closing = this.chunks.return?.();
    if (closing === undefined) {
      callback(error);
      return;
    }
    closing.then(
      () => callback(error),
      (closeError: unknown) => callback(error ?? (closeError as Error)),
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
  buffers: ResponseReadBuffers | undefined,
): DownloadBodyStream {
  const stream = new DownloadBodyStream(body, buffers);
  if (buffers !== undefined) {
    const onPipe = (source: unknown) => {
      if (source === stream) buffers.bindTo(stream, response);
    };
    response.once('pipe', onPipe);
  }
  return stream;
}
