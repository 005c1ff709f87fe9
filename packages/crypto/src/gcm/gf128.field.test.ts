import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from '../bytes.util.js';
import { blockToField, FIELD_ONE, fieldToBlock, gfInverse, gfMultiply, gfPower } from './gf128.field.js';

const field = (hex: string): bigint => blockToField(hexToBytes(hex));
const hex = (element: bigint): string => bytesToHex(fieldToBlock(element));
const random = (): bigint => blockToField(crypto.getRandomValues(new Uint8Array(16)));

describe('GF(2^128) in GCM bit order', () => {
  it('reads and writes blocks big-endian, the first bit being x^0', () => {
    const block = '0102030405060708090a0b0c0d0e0f10';
    expect(hex(field(block))).toBe(block);
    expect(hex(FIELD_ONE)).toBe('80000000000000000000000000000000');
    expect(blockToField(hexToBytes('ff' + block), 1)).toBe(field(block));
  });

  it('multiplies by x as a one-bit shift right, folding x^128 into 0xe1', () => {
    const x = field('40000000000000000000000000000000');
    expect(hex(gfMultiply(field('80000000000000000000000000000000'), x))).toBe(
      '40000000000000000000000000000000',
    );
    // x^127 · x = x^128 = 1 + x + x^2 + x^7.
    expect(hex(gfMultiply(field('00000000000000000000000000000001'), x))).toBe(
      'e1000000000000000000000000000000',
    );
  });

  // The GCM specification's test case 2: GHASH over one ciphertext block and the length block is
  // ((C·H) ⊕ L)·H; its printed intermediate X1 = C·H pins a single multiplication.
  it('matches the GCM specification (test case 2: X1 = C·H)', () => {
    const h = field('66e94bd4ef8a2c3b884cfa59ca342b2e');
    const c = field('0388dace60b6a392f328c2b971b2fe78');
    expect(hex(gfMultiply(c, h))).toBe('5e2ec746917062882c85b0685353deb7');
    const lengths = field('00000000000000000000000000000080');
    expect(hex(gfMultiply(gfMultiply(c, h) ^ lengths, h))).toBe('f38cbb1ad69223dcc3457ae5b6b0f885');
  });

  it('is a field: commutative, distributive, with inverses and powers', () => {
    for (let i = 0; i < 5; i++) {
      const [a, b, c] = [random(), random(), random()];
      expect(gfMultiply(a, b)).toBe(gfMultiply(b, a));
      expect(gfMultiply(a, b ^ c)).toBe(gfMultiply(a, b) ^ gfMultiply(a, c));
      expect(gfMultiply(a, FIELD_ONE)).toBe(a);
      expect(gfMultiply(a, gfInverse(a))).toBe(FIELD_ONE);
      expect(gfPower(a, 3)).toBe(gfMultiply(a, gfMultiply(a, a)));
      expect(gfPower(a, 0)).toBe(FIELD_ONE);
      expect(gfMultiply(gfPower(a, 1000), gfPower(a, 24))).toBe(gfPower(a, 1024));
    }
    expect(() => gfInverse(0n)).toThrow(RangeError);
  });

  it("multiplies as the specification's bit-by-bit algorithm does, over random and edge operands", () => {
    // SP 800-38D Algorithm 1 on bigints, as written: the reference for the word-wise multiply.
    const reference = (x: bigint, y: bigint): bigint => {
      let z = 0n;
      let v = y;
      for (let i = 127n; i >= 0n; i--) {
        if (((x >> i) & 1n) === 1n) z ^= v;
        v = (v & 1n) === 1n ? (v >> 1n) ^ (0xe1n << 120n) : v >> 1n;
      }
      return z;
    };
    const all = (1n << 128n) - 1n;
    const edges = [0n, 1n, FIELD_ONE, all, 1n << 96n, (1n << 96n) - 1n, 0xffff_ffffn << 32n];
    const operands = [...edges, ...Array.from({ length: 40 }, random)];
    for (const a of operands) {
      for (const b of edges.concat(random(), random())) {
        expect(gfMultiply(a, b)).toBe(reference(a, b));
        expect(gfMultiply(b, a)).toBe(reference(b, a));
      }
    }
  });
});
