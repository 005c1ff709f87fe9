import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64 } from './base64.codec.js';
import { InvalidArgumentError } from './crypto.errors.js';
import { patternBytes } from './testing/stream.helpers.js';

describe('base64 codec', () => {
  it('matches RFC 4648 test vectors', () => {
    const cases: [string, string][] = [
      ['', ''],
      ['f', 'Zg=='],
      ['fo', 'Zm8='],
      ['foo', 'Zm9v'],
      ['foob', 'Zm9vYg=='],
      ['fooba', 'Zm9vYmE='],
      ['foobar', 'Zm9vYmFy'],
    ];
    for (const [text, base64] of cases) {
      expect(bytesToBase64(new TextEncoder().encode(text))).toBe(base64);
      expect(new TextDecoder().decode(base64ToBytes(base64))).toBe(text);
    }
  });

  it('agrees with Node for every length up to 300 and all byte values', () => {
    for (let length = 0; length <= 300; length++) {
      const bytes = patternBytes(length, length + 1);
      const expected = Buffer.from(bytes).toString('base64');
      expect(bytesToBase64(bytes)).toBe(expected);
      expect(base64ToBytes(expected)).toEqual(new Uint8Array(bytes));
    }
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(bytesToBase64(all)).toBe(Buffer.from(all).toString('base64'));
  });

  it('encodes a view without its surrounding buffer', () => {
    const bytes = new Uint8Array([9, 1, 2, 3, 9]).subarray(1, 4);
    expect(bytesToBase64(bytes)).toBe('AQID');
  });

  it.each([
    'A',
    'AB=',
    'Zm9v!',
    'Zm 9v',
    'Zm9v\n',
    'Zg=a',
    '=Zm9',
    'Zm9-',
    'Zm9_',
    'Zh==',
    'Zm9=',
    'Zg==Zg==',
    'é000',
  ])('rejects %j', (text) => {
    expect(() => base64ToBytes(text)).toThrow(InvalidArgumentError);
  });
});
