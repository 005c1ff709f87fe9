import { blockToField, gfMultiply, type FieldElement } from './gf128.field.js';

/**
 * GHASH (SP 800-38D, section 6.4) and the counter-block algebra the streaming construction needs.
 * GHASH_H(X_1 … X_m) = X_1·H^m ⊕ X_2·H^(m−1) ⊕ … ⊕ X_m·H: it is linear in its input, and hashing
 * X then Y equals GHASH(X)·H^|Y| ⊕ GHASH(Y). Everything below rests on that.
 */

const LOW_32 = 0xffff_ffffn;

/** Folds `bytes` (zero-padded to whole blocks) into a running GHASH value: Y ← (Y ⊕ X_i)·H. */
export function ghashUpdate(h: FieldElement, state: FieldElement, bytes: Uint8Array): FieldElement {
  let y = state;
  const whole = bytes.length - (bytes.length % 16);
  for (let offset = 0; offset < whole; offset += 16) y = gfMultiply(y ^ blockToField(bytes, offset), h);
  if (whole < bytes.length) {
    const last = new Uint8Array(16);
    last.set(bytes.subarray(whole));
    y = gfMultiply(y ^ blockToField(last), h);
  }
  return y;
}

/** The length block [8·aadBytes]_64 ‖ [8·cipherBytes]_64 that ends every GCM hash. */
export function lengthBlock(aadByteLength: number, cipherByteLength: number): FieldElement {
  return ((BigInt(aadByteLength) * 8n) << 64n) | (BigInt(cipherByteLength) * 8n);
}

/** GHASH_H(A ‖ 0^v ‖ C ‖ 0^u ‖ [len A]_64 ‖ [len C]_64): the S of SP 800-38D, before E_K(J0). */
export function ghash(h: FieldElement, aadBytes: Uint8Array, cipherBytes: Uint8Array): FieldElement {
  const y = ghashUpdate(h, ghashUpdate(h, 0n, aadBytes), cipherBytes);
  return gfMultiply(y ^ lengthBlock(aadBytes.length, cipherBytes.length), h);
}

/**
 * The pre-counter block J0 of an IV: IV ‖ 0^31 ‖ 1 for a 96-bit IV, otherwise
 * GHASH_H(IV ‖ 0^(s+64) ‖ [len IV]_64).
 */
export function preCounterBlock(h: FieldElement, ivBytes: Uint8Array): FieldElement {
  if (ivBytes.length === 12) {
    const block = new Uint8Array(16);
    block.set(ivBytes);
    block[15] = 1;
    return blockToField(block);
  }
  return gfMultiply(ghashUpdate(h, 0n, ivBytes) ^ lengthBlock(0, ivBytes.length), h);
}

/** inc32 applied `steps` times: the low 32 bits count modulo 2^32, the high 96 bits stay. */
export function incrementCounter(block: FieldElement, steps: number): FieldElement {
  return (block & ~LOW_32) | ((block + BigInt(steps)) & LOW_32);
}

/**
 * The 16-byte IV′ whose pre-counter block is `j0Prime`. For a 128-bit IV, GCM derives
 * J0′ = GHASH_H(IV′ ‖ 0^64 ‖ [128]_64) = IV′·H² ⊕ L·H with L = [0]_64 ‖ [128]_64, so
 * IV′ = (J0′ ⊕ L·H)·H^(−2). `hInverseSquared` is H^(−2), computed once per key.
 */
export function ivForPreCounter(
  h: FieldElement,
  hInverseSquared: FieldElement,
  j0Prime: FieldElement,
): FieldElement {
  return gfMultiply(j0Prime ^ gfMultiply(lengthBlock(0, 16), h), hInverseSquared);
}
