import { gfMultiply, gfPower, type FieldElement } from './gf128.field.js';
import { ghashUpdate, lengthBlock } from './ghash.math.js';

/**
 * The GHASH of a whole chunk, put together from one hash per slice.
 *
 * It holds R = GHASH_H(A ‖ C_0 ‖ … ‖ C_k)·H. A WebCrypto call over slice C_k (as plaintext output
 * or as AAD) returns a tag E_K(J0′) ⊕ GHASH_H(C_k ‖ lengths_k); with the mask removed that is
 * GHASH_H(C_k)·H ⊕ lengths_k·H, so {@link sliceHashFromTag} strips the length block and
 * {@link append} computes R ← R·H^(blocks in C_k) ⊕ GHASH_H(C_k)·H. At the end the chunk's
 * S = R ⊕ [len A ‖ len C]·H, and its tag is E_K(J0) ⊕ S.
 */
export class GhashChain {
  readonly #h: FieldElement;
  #r: FieldElement;
  #powerBlocks = -1;
  #power: FieldElement = 0n;

  constructor(h: FieldElement, aadBytes: Uint8Array) {
    this.#h = h;
    this.#r = gfMultiply(ghashUpdate(h, 0n, aadBytes), h);
  }

  /**
   * GHASH_H(C_k)·H from a slice's unmasked tag: `maskedTag ⊕ mask ⊕ lengths·H`, where `lengths` is
   * the length block of that call (the slice as ciphertext, or as AAD).
   */
  sliceHashFromTag(maskedTag: FieldElement, mask: FieldElement, lengths: FieldElement): FieldElement {
    return maskedTag ^ mask ^ gfMultiply(lengths, this.#h);
  }

  /** Appends a slice of `byteLength` bytes whose GHASH_H(C_k)·H is `sliceHashTimesH`. */
  append(sliceHashTimesH: FieldElement, byteLength: number): void {
    const blocks = Math.ceil(byteLength / 16);
    // Every slice but the last has the same size in practice: one power per chunk, not per slice.
    if (blocks !== this.#powerBlocks) {
      this.#power = gfPower(this.#h, blocks);
      this.#powerBlocks = blocks;
    }
    this.#r = gfMultiply(this.#r, this.#power) ^ sliceHashTimesH;
  }

  /** S = GHASH_H(A ‖ C ‖ lengths) for the whole chunk. */
  finish(aadByteLength: number, cipherByteLength: number): FieldElement {
    return this.#r ^ gfMultiply(lengthBlock(aadByteLength, cipherByteLength), this.#h);
  }
}
