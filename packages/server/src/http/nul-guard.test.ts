import { describe, expect, it } from 'vitest';
import { containsNul } from './nul-guard.js';

describe('containsNul', () => {
  it('finds a NUL in strings, nested values and keys', () => {
    expect(containsNul('a\u0000b')).toBe(true);
    expect(containsNul({ a: [{ b: 'x\u0000' }] })).toBe(true);
    expect(containsNul({ 'k\u0000': 1 })).toBe(true);
  });

  it('passes text without NUL, numbers, null and bytes', () => {
    expect(containsNul({ name: 'Zoë 😀', size: 1, none: null, list: ['a'] })).toBe(false);
    expect(containsNul(Buffer.from([0, 0, 0]))).toBe(false);
    expect(containsNul(undefined)).toBe(false);
  });
});
