/**
 * GF(2^128) as GCM defines it (NIST SP 800-38D, section 6.3): a 16-byte block is a polynomial whose
 * first bit (the high bit of byte 0) is the coefficient of x^0 and whose last bit is that of
 * x^127, reduced modulo x^128 + x^7 + x^2 + x + 1.
 *
 * A field element here is a `bigint` holding the block's 16 bytes big-endian, so the bigint's bit
 * 127 is x^0 and its bit 0 is x^127. Addition is XOR (`^`).
 *
 * BigInt arithmetic is not constant-time. The streaming construction does a handful of these
 * operations per slice, inside the page's own worker, on values no other party can time; the
 * bulk of the work (AES and GHASH over the data) stays in WebCrypto.
 */
export type FieldElement = bigint;

/** The multiplicative identity: x^0, i.e. the block 80 00 … 00. */
export const FIELD_ONE: FieldElement = 1n << 127n;

/** x^128 ≡ x^7 + x^2 + x + 1, seen from the low end of the bigint (the block 0xe1 00 … 00). */
const REDUCTION: FieldElement = 0xe1n << 120n;
const LOW_64 = (1n << 64n) - 1n;
/** The group order minus one: a^(2^128 − 2) = a^(−1) for every non-zero a. */
const INVERSE_EXPONENT = (1n << 128n) - 2n;

/** The field element of 16 bytes starting at `offset`. */
export function blockToField(bytes: Uint8Array, offset = 0): FieldElement {
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, 16);
  return (view.getBigUint64(0, false) << 64n) | view.getBigUint64(8, false);
}

/** The 16-byte block of a field element. */
export function fieldToBlock(element: FieldElement): Uint8Array<ArrayBuffer> {
  const block = new Uint8Array(16);
  const view = new DataView(block.buffer);
  view.setBigUint64(0, element >> 64n, false);
  view.setBigUint64(8, element & LOW_64, false);
  return block;
}

/** x · y (SP 800-38D, Algorithm 1: shift-and-add over the bits of x, from x^0 up). */
export function gfMultiply(x: FieldElement, y: FieldElement): FieldElement {
  let product = 0n;
  let shifted = y;
  // Walking the bits of x through a binary string is much cheaper than 128 BigInt shifts.
  const bits = x.toString(2).padStart(128, '0');
  for (let i = 0; i < 128; i++) {
    if (bits.charCodeAt(i) === 49) product ^= shifted;
    // shifted · x: one step towards x^127, folding x^128 back in with the reduction polynomial.
    shifted = (shifted & 1n) === 1n ? (shifted >> 1n) ^ REDUCTION : shifted >> 1n;
  }
  return product;
}

/** base^exponent by square-and-multiply (exponent ≥ 0; base^0 = 1). */
export function gfPower(base: FieldElement, exponent: bigint | number): FieldElement {
  let e = BigInt(exponent);
  if (e < 0n) throw new RangeError('exponent must be non-negative');
  let result = FIELD_ONE;
  let square = base;
  while (e > 0n) {
    if ((e & 1n) === 1n) result = gfMultiply(result, square);
    e >>= 1n;
    if (e > 0n) square = gfMultiply(square, square);
  }
  return result;
}

/** x^(−1), for x ≠ 0 (Fermat: the multiplicative group has order 2^128 − 1). */
export function gfInverse(x: FieldElement): FieldElement {
  if (x === 0n) throw new RangeError('zero has no inverse');
  return gfPower(x, INVERSE_EXPONENT);
}
