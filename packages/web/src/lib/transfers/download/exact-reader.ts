import { IntegrityError } from '@coffer/crypto';

/**
 * The stream ended before the piece asked for was complete. An integrity failure if it stays that
 * way, but also what a dropped connection can look like: a download may resume from the piece start.
 */
export class TruncatedStreamError extends IntegrityError {
  constructor() {
    super();
    this.name = 'TruncatedStreamError';
  }
}

/**
 * Cuts a byte stream into pieces of exact, known lengths (the encrypted chunks), each in a buffer
 * of its own: a fresh one, or one the caller gives back for reuse (`into`). A stream that ends early is
 * truncated, one with bytes after the last piece was extended: both are integrity failures.
 *
 * Where the stream is a byte stream (a fetch body in current browsers) it is read with a BYOB
 * reader straight into the chunk's buffer: no per-piece buffers for the collector and no copy on
 * the page's main thread. Otherwise the pieces the stream gives are copied into the chunk buffer.
 */
export class ExactReader {
  readonly #byob: ReadableStreamBYOBReader | null;
  readonly #reader: ReadableStreamDefaultReader<Uint8Array> | null;
  #pending: Uint8Array = new Uint8Array(0);
  #received = 0;

  constructor(
    stream: ReadableStream<Uint8Array>,
    /** Called with the total bytes received so far, after every network piece. */
    private readonly onReceived: (received: number) => void,
  ) {
    this.#byob = openByobReader(stream);
    this.#reader = this.#byob === null ? stream.getReader() : null;
  }

  /** True when the stream is read into the chunk buffers directly. */
  get readsInPlace(): boolean {
    return this.#byob !== null;
  }

  /**
   * The next `length` bytes, in `into` when it is exactly that long (a buffer the caller no longer
   * needs: reusing it spares the page faults of a fresh chunk-sized allocation), else in a new one.
   * `into` belongs to the reader from then on (a BYOB read detaches it).
   * @throws {TruncatedStreamError} the stream ended first.
   */
  async read(length: number, into: ArrayBuffer | null = null): Promise<ArrayBuffer> {
    const buffer = into !== null && into.byteLength === length ? into : new ArrayBuffer(length);
    return this.#byob === null ? this.#readPieces(buffer) : this.#readInPlace(this.#byob, buffer);
  }

  /**
   * The next `length` bytes, `sliceBytes` at a time through two reused slice buffers, each slice
   * handed to `take` (in order; it must be done with the slice when it resolves). The next slice is
   * read into the other buffer while `take` still works on this one (a file write, a hash), so the
   * network is not left waiting for the disk; a buffer is reused only once its `take` resolved. No
   * chunk-sized buffer exists here.
   * @throws {TruncatedStreamError} the stream ended first; or what `take` threw.
   */
  async readSlices(
    length: number,
    sliceBytes: number,
    take: (slice: Uint8Array) => Promise<void>,
  ): Promise<void> {
    const spare: (ArrayBuffer | null)[] = [null, null];
    const taking: Promise<void>[] = [Promise.resolve(), Promise.resolve()];
    let slot = 0;
    try {
      for (let offset = 0; offset < length; offset += sliceBytes) {
        await taking[slot];
        const bytes = await this.read(Math.min(sliceBytes, length - offset), spare[slot] ?? null);
        spare[slot] = bytes;
        const took = take(new Uint8Array(bytes));
        // Its failure is thrown where it is awaited (or below, once the read failed).
        took.catch(() => undefined);
        taking[slot] = took;
        slot = 1 - slot;
      }
      await Promise.all(taking);
    } finally {
      // Nothing may still work on a buffer when this returns or throws.
      await Promise.allSettled(taking);
    }
  }

  /** @throws {IntegrityError} more bytes follow. */
  async expectEnd(): Promise<void> {
    if (this.#byob !== null) {
      const { done, value } = await this.#byob.read(new Uint8Array(1));
      if (!done && value.byteLength > 0) throw new IntegrityError();
      return;
    }
    if (this.#pending.length > 0) throw new IntegrityError();
    for (;;) {
      const { done, value } = await this.#defaultReader().read();
      if (done) return;
      if (value.length > 0) throw new IntegrityError();
    }
  }

  /** Stops reading (the download failed or was cancelled). Never throws. */
  async cancel(): Promise<void> {
    await (this.#byob ?? this.#reader)?.cancel().catch(() => undefined);
  }

  async #readInPlace(reader: ReadableStreamBYOBReader, into: ArrayBuffer): Promise<ArrayBuffer> {
    let buffer = into;
    const length = into.byteLength;
    let filled = 0;
    while (filled < length) {
      // The buffer is transferred into the stream and comes back as `value.buffer`.
      const { done, value } = await reader.read(new Uint8Array(buffer, filled, length - filled));
      if (done || value.byteLength === 0) throw new TruncatedStreamError();
      buffer = value.buffer;
      filled += value.byteLength;
      this.#count(value.byteLength);
    }
    return buffer;
  }

  async #readPieces(into: ArrayBuffer): Promise<ArrayBuffer> {
    const out = new Uint8Array(into);
    const length = out.length;
    let filled = 0;
    while (filled < length) {
      if (this.#pending.length === 0) this.#pending = await this.#next();
      const take = Math.min(length - filled, this.#pending.length);
      out.set(this.#pending.subarray(0, take), filled);
      filled += take;
      this.#pending = this.#pending.subarray(take);
    }
    return out.buffer;
  }

  async #next(): Promise<Uint8Array> {
    const { done, value } = await this.#defaultReader().read();
    if (done) throw new TruncatedStreamError();
    this.#count(value.length);
    return value;
  }

  #count(bytes: number): void {
    this.#received += bytes;
    this.onReceived(this.#received);
  }

  #defaultReader(): ReadableStreamDefaultReader<Uint8Array> {
    if (this.#reader === null) throw new Error('ExactReader: no default reader');
    return this.#reader;
  }
}

/** A BYOB reader where the stream is a byte stream, else null (the stream stays unlocked). */
function openByobReader(stream: ReadableStream<Uint8Array>): ReadableStreamBYOBReader | null {
  try {
    return stream.getReader({ mode: 'byob' });
  } catch {
    return null;
  }
}
