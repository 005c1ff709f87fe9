import { describe, expect, it } from 'vitest';
import {
  chunkCount,
  encryptedPartLength,
  encryptedSize,
  plainChunkLength,
  plainSizeFromEncrypted,
} from './content-size.math.js';
import { InvalidArgumentError } from './crypto.errors.js';
import { CHUNK_OVERHEAD, CHUNK_SIZE, IV_LENGTH, TAG_LENGTH } from './format.constants.js';

const C = CHUNK_SIZE;

describe('constants', () => {
  it('match the format', () => {
    expect(CHUNK_SIZE).toBe(99_614_720);
    expect(CHUNK_SIZE).toBe(95 * 1024 * 1024);
    expect([IV_LENGTH, TAG_LENGTH, CHUNK_OVERHEAD]).toEqual([12, 16, 28]);
  });
});

describe('size arithmetic (real chunk size)', () => {
  // plain size → [chunks, encrypted size]
  const table: [number, number, number][] = [
    [0, 1, 28],
    [1, 1, 29],
    [1000, 1, 1028],
    [C - 1, 1, C + 27],
    [C, 1, C + 28],
    [C + 1, 2, C + 57],
    [2 * C, 2, 2 * C + 56],
    [2 * C + 5, 3, 2 * C + 5 + 84],
    [1024 ** 3, 11, 1024 ** 3 + 308],
    [10 * 1024 ** 4, 110_377, 10 * 1024 ** 4 + 28 * 110_377],
  ];

  it.each(table)('plain %i → %i chunks, %i bytes stored', (plain, chunks, stored) => {
    expect(chunkCount(plain)).toBe(chunks);
    expect(encryptedSize(plain)).toBe(stored);
    // The ARCHITECTURE formula, literally.
    expect(encryptedSize(plain)).toBe(plain + 28 * Math.max(1, Math.ceil(plain / C)));
    expect(plainSizeFromEncrypted(stored)).toBe(plain);
  });

  it('gives each chunk and multipart part its exact length', () => {
    const plain = 2 * C + 5;
    expect([0, 1, 2].map((i) => plainChunkLength(plain, i))).toEqual([C, C, 5]);
    expect([1, 2, 3].map((n) => encryptedPartLength(plain, n))).toEqual([C + 28, C + 28, 33]);
    expect(plainChunkLength(0, 0)).toBe(0);
    expect(encryptedPartLength(0, 1)).toBe(28);
    expect(plainChunkLength(C, 0)).toBe(C);
    // The parts always add up to the stored size.
    for (const size of [0, 1, C, C + 1, 3 * C]) {
      let total = 0;
      for (let n = 1; n <= chunkCount(size); n++) total += encryptedPartLength(size, n);
      expect(total).toBe(encryptedSize(size));
    }
  });
});

describe('size arithmetic (small chunk size)', () => {
  it('round-trips every size from 0 to 1000 with C = 64', () => {
    for (let plain = 0; plain <= 1000; plain++) {
      const stored = encryptedSize(plain, 64);
      expect(plainSizeFromEncrypted(stored, 64)).toBe(plain);
    }
  });

  it('says which stored sizes no plaintext produces', () => {
    const impossible = new Set<number>();
    for (let plain = 0; plain <= 1000; plain++) impossible.add(encryptedSize(plain, 64));
    for (let stored = 0; stored <= 1000; stored++) {
      const plain = plainSizeFromEncrypted(stored, 64);
      if (impossible.has(stored)) expect(plain).not.toBeNull();
      else expect(plain).toBeNull();
    }
    expect(plainSizeFromEncrypted(27, 64)).toBeNull();
    expect(plainSizeFromEncrypted(92 + 28, 64)).toBeNull(); // an empty trailing chunk
    expect(plainSizeFromEncrypted(92 + 29, 64)).toBe(65);
  });
});

describe('input validation', () => {
  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])('rejects plain size %s', (size) => {
    expect(() => encryptedSize(size)).toThrow(InvalidArgumentError);
    expect(() => chunkCount(size)).toThrow(InvalidArgumentError);
  });

  it('rejects bad chunk sizes, indexes and part numbers', () => {
    expect(() => chunkCount(10, 0)).toThrow(InvalidArgumentError);
    expect(() => chunkCount(10, -64)).toThrow(InvalidArgumentError);
    expect(() => plainChunkLength(10, 1)).toThrow(InvalidArgumentError);
    expect(() => plainChunkLength(10, -1)).toThrow(InvalidArgumentError);
    expect(() => encryptedPartLength(10, 0)).toThrow(InvalidArgumentError);
    expect(() => encryptedPartLength(10, 2)).toThrow(InvalidArgumentError);
    expect(() => plainSizeFromEncrypted(-1)).toThrow(InvalidArgumentError);
    expect(() => encryptedSize(Number.MAX_SAFE_INTEGER - 10)).toThrow(InvalidArgumentError);
  });
});
