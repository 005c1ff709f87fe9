import { createCipheriv } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from '../bytes.util.js';
import { blockToField, fieldToBlock, gfInverse, gfMultiply } from './gf128.field.js';
import { GCM_SPEC_CASES } from './gcm-spec.vectors.js';
import { ghash, incrementCounter, ivForPreCounter, preCounterBlock } from './ghash.math.js';

const field = (hex: string): bigint => blockToField(hexToBytes(hex));
const hex = (element: bigint): string => bytesToHex(fieldToBlock(element));

/** The raw AES block cipher from Node's OpenSSL: an oracle independent of WebCrypto's GCM. */
function aesBlock(keyHex: string, blockHex: string): string {
  const cipher = createCipheriv(`aes-${keyHex.length * 4}-ecb`, hexToBytes(keyHex), null).setAutoPadding(
    false,
  );
  return bytesToHex(new Uint8Array(cipher.update(hexToBytes(blockHex))));
}

describe('GHASH against the GCM specification', () => {
  it.each(GCM_SPEC_CASES)('test case $n: H, J0, GHASH(H, A, C) and the tag', (tc) => {
    const h = field(tc.hHex);
    expect(aesBlock(tc.keyHex, '00'.repeat(16))).toBe(tc.hHex);
    expect(hex(preCounterBlock(h, hexToBytes(tc.ivHex)))).toBe(tc.j0Hex);
    const s = ghash(h, hexToBytes(tc.aadHex), hexToBytes(tc.cipherHex));
    expect(hex(s)).toBe(tc.ghashHex);
    expect(hex(field(aesBlock(tc.keyHex, tc.j0Hex)) ^ s)).toBe(tc.tagHex);
  });

  it('includes IVs other than 96 bits with the 256-bit key (cases 17 and 18)', () => {
    const cases = GCM_SPEC_CASES.filter((tc) => tc.keyHex.length === 64 && tc.ivHex.length !== 24);
    expect(cases.map((tc) => tc.n)).toEqual([17, 18]);
  });
});

describe('counter blocks', () => {
  it('inc32 counts the low 32 bits modulo 2^32 and leaves the rest', () => {
    expect(hex(incrementCounter(field('cafebabefacedbaddecaf88800000001'), 1))).toBe(
      'cafebabefacedbaddecaf88800000002',
    );
    expect(hex(incrementCounter(field('0cd953e2140a5976079f8e24ffffffff'), 2))).toBe(
      '0cd953e2140a5976079f8e2400000001',
    );
  });

  it('finds the 16-byte IV′ whose own J0′ is any chosen counter block', () => {
    const h = field('acbef20579b4b8ebce889bac8732dad7');
    const hInverseSquared = gfInverse(gfMultiply(h, h));
    for (const wanted of [
      'cafebabefacedbaddecaf88800000001',
      'cafebabefacedbaddecaf88800060001',
      '0cd953e2140a5976079f8e2406bc8ebf',
    ]) {
      const ivPrime = fieldToBlock(ivForPreCounter(h, hInverseSquared, field(wanted)));
      expect(ivPrime.length).toBe(16);
      expect(hex(preCounterBlock(h, ivPrime))).toBe(wanted);
    }
  });
});
