/**
 * GF(2^128) as GCM defines it (NIST SP 800-38D, section 6.3): a 16-byte block is a polynomial whose
 * first bit (the high bit of byte 0) is the coefficient of x^0 and whose last bit is that of
 * x^127, reduced modulo x^128 + x^7 + x^2 + x + 1.
 *
 * A field element here is a `bigint` holding the block's 16 bytes big-endian, so the bigint's bit
 * 127 is x^0 and its bit 0 is x^127. Addition is XOR (`^`).
 *
 * BigInt arithmetic is not constant-time (the multiplication works on 32-bit words without
 * data-dependent branches, but its conversions and the other operations are bigints). The streaming
 * construction does a handful of these operations per slice, inside the page's own worker, on
 * values no other party can time; the bulk of the work (AES and GHASH over the data) stays in
 * WebCrypto.
 */
export type FieldElement = bigint;

/** The multiplicative identity: x^0, i.e. the block 80 00 … 00. */
export const FIELD_ONE: FieldElement = 1n << 127n;

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

const WORD = 0xffff_ffffn;

/**
 * x · y (SP 800-38D, Algorithm 1: shift-and-add over the bits of x, from x^0 up), on 32-bit words:
 * the two bigints are split into four numbers each and the product built back at the end, so a
 * multiplication leaves ~20 bigints for the collector instead of ~400 (session 27: the crypto
 * worker's young generation grew with every GiB sealed while these were most of its garbage). No
 * branch depends on the operands' bits: each step adds y masked by the bit, and folds the reduction
 * in masked by the bit shifted out.
 */
export function gfMultiply(x: FieldElement, y: FieldElement): FieldElement {
  const xWords = [Number(x >> 96n), Number((x >> 64n) & WORD), Number((x >> 32n) & WORD), Number(x & WORD)];
  // y's words, word 0 holding x^0 … x^31 (its bigint bits 127 … 96).
  let y0 = Number(y >> 96n);
  let y1 = Number((y >> 64n) & WORD);
  let y2 = Number((y >> 32n) & WORD);
  let y3 = Number(y & WORD);
  let p0 = 0;
  let p1 = 0;
  let p2 = 0;
  let p3 = 0;
  for (const word of xWords) {
    for (let bit = 31; bit >= 0; bit--) {
      const take = -((word >>> bit) & 1);
      p0 ^= y0 & take;
      p1 ^= y1 & take;
      p2 ^= y2 & take;
      p3 ^= y3 & take;
      // y · x: one step towards x^127, folding x^128 back in as x^7 + x^2 + x + 1 (0xe1 …).
      const fold = -(y3 & 1);
      y3 = (y3 >>> 1) | (y2 << 31);
      y2 = (y2 >>> 1) | (y1 << 31);
      y1 = (y1 >>> 1) | (y0 << 31);
      y0 = (y0 >>> 1) ^ (0xe100_0000 & fold);
    }
  }
  return (BigInt(p0 >>> 0) << 96n) | (BigInt(p1 >>> 0) << 64n) | (BigInt(p2 >>> 0) << 32n) | BigInt(p3 >>> 0);
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
