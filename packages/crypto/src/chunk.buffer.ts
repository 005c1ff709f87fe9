/** Capacity of a fresh buffer. */
const INITIAL_CAPACITY = 1 << 20;
/** Past this, the buffer grows straight to the chunk size: the input is evidently large. */
const DOUBLING_LIMIT = 8 << 20;

/**
 * Collects stream pieces into one chunk of at most `size` bytes. Memory is one buffer, reused for
 * every chunk. It starts at 1 MiB and doubles up to 8 MiB, then grows straight to `size`: a small
 * file does not cost a 95 MiB allocation, and a large one copies little while growing.
 */
export class ChunkBuffer {
  readonly size: number;
  #bytes = new Uint8Array(0);
  #filled = 0;

  constructor(size: number) {
    this.size = size;
  }

  get filled(): number {
    return this.#filled;
  }

  get isFull(): boolean {
    return this.#filled === this.size;
  }

  /** Copies as much of `source` as still fits into the chunk; returns how many bytes were taken. */
  fill(source: Uint8Array): number {
    const taken = Math.min(source.length, this.size - this.#filled);
    this.#reserve(this.#filled + taken);
    this.#bytes.set(taken === source.length ? source : source.subarray(0, taken), this.#filled);
    this.#filled += taken;
    return taken;
  }

  /** The collected bytes. Valid until the next `fill` after a `clear`. */
  view(): Uint8Array<ArrayBuffer> {
    return this.#bytes.subarray(0, this.#filled);
  }

  clear(): void {
    this.#filled = 0;
  }

  #reserve(needed: number): void {
    if (needed <= this.#bytes.length) return;
    const doubled = Math.max(needed, INITIAL_CAPACITY, this.#bytes.length * 2);
    const capacity = Math.min(this.size, doubled > DOUBLING_LIMIT ? this.size : doubled);
    const grown = new Uint8Array(capacity);
    grown.set(this.view());
    this.#bytes = grown;
  }
}
