import { IntegrityError } from '@coffer/crypto';

/**
 * Cuts a byte stream into pieces of exact, known lengths (the encrypted chunks), each in a fresh
 * buffer of its own so it can be transferred to the crypto worker. A stream that ends early is
 * truncated, one with bytes after the last piece was extended: both are integrity failures.
 */
export class ExactReader {
  #pending: Uint8Array = new Uint8Array(0);
  #received = 0;

  constructor(
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    /** Called with the total bytes received so far, after every network piece. */
    private readonly onReceived: (received: number) => void,
  ) {}

  /** The next `length` bytes. @throws {IntegrityError} the stream ended first. */
  async read(length: number): Promise<ArrayBuffer> {
    const out = new Uint8Array(length);
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

  /** @throws {IntegrityError} more bytes follow. */
  async expectEnd(): Promise<void> {
    if (this.#pending.length > 0) throw new IntegrityError();
    for (;;) {
      const { done, value } = await this.reader.read();
      if (done) return;
      if (value.length > 0) throw new IntegrityError();
    }
  }

  async #next(): Promise<Uint8Array> {
    const { done, value } = await this.reader.read();
    if (done) throw new IntegrityError();
    this.#received += value.length;
    this.onReceived(this.#received);
    return value;
  }
}
