import { assertNonNegativeInteger } from '../bytes.util.js';
import { InvalidArgumentError } from '../crypto.errors.js';
import { MAX_GCM_PLAIN_LENGTH } from './gcm-secrets.derive.js';

/** Where a slice sits in its chunk. */
export interface SlicePlace {
  /** Bytes of the chunk before this slice (a multiple of 16). */
  byteOffset: number;
  /** True for the slice that reaches the end of the chunk. */
  isLast: boolean;
}

/**
 * The slice rules of a streaming chunk: slices come in order; every slice but the last is a
 * positive multiple of 16 bytes (so each starts on a counter block); together they are exactly the
 * declared length. An empty chunk is one empty slice.
 */
export class SlicePlan {
  readonly total: number;
  #offset = 0;
  #finished = false;

  constructor(total: number) {
    assertNonNegativeInteger(total, 'chunk length');
    if (total > MAX_GCM_PLAIN_LENGTH) throw new InvalidArgumentError('chunk is longer than GCM allows');
    this.total = total;
  }

  /** Bytes already taken. */
  get offset(): number {
    return this.#offset;
  }

  /** True once the last slice was taken. */
  get finished(): boolean {
    return this.#finished;
  }

  /** Checks the next slice's length against the rules and moves past it. */
  take(byteLength: number): SlicePlace {
    if (this.#finished) throw new InvalidArgumentError('the chunk has no slices left');
    const remaining = this.total - this.#offset;
    if (byteLength > remaining) {
      throw new InvalidArgumentError(
        `slice of ${byteLength} bytes passes the chunk's end (${remaining} left)`,
      );
    }
    const isLast = byteLength === remaining;
    if (!isLast && (byteLength === 0 || byteLength % 16 !== 0)) {
      throw new InvalidArgumentError(
        `a slice before the last must be a positive multiple of 16 bytes, got ${byteLength}`,
      );
    }
    const place = { byteOffset: this.#offset, isLast };
    this.#offset += byteLength;
    this.#finished = isLast;
    return place;
  }
}
