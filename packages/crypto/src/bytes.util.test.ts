import { describe, expect, it } from 'vitest';
import { bytesToHex, concatBytes, hexToBytes, toBufferSource, utf8Bytes } from './bytes.util.js';
import { InvalidArgumentError } from './crypto.errors.js';

describe('byte helpers', () => {
  it('round-trips hex', () => {
    expect(bytesToHex(new Uint8Array([0, 15, 16, 255]))).toBe('000f10ff');
    expect(hexToBytes('000F10ff')).toEqual(new Uint8Array([0, 15, 16, 255]));
    expect(() => hexToBytes('abc')).toThrow(InvalidArgumentError);
    expect(() => hexToBytes('zz')).toThrow(InvalidArgumentError);
  });

  it('encodes UTF-8 without normalization', () => {
    expect(bytesToHex(utf8Bytes('é'))).toBe('c3a9');
    expect(bytesToHex(utf8Bytes('e\u0301'))).toBe('65cc81');
  });

  it('concatenates', () => {
    expect(concatBytes([new Uint8Array([1]), new Uint8Array(0), new Uint8Array([2, 3])])).toEqual(
      new Uint8Array([1, 2, 3]),
    );
  });

  it('copies views of a SharedArrayBuffer and passes others through', () => {
    const plain = new Uint8Array([1, 2]);
    expect(toBufferSource(plain)).toBe(plain);
    const shared = new Uint8Array(new SharedArrayBuffer(2));
    shared[0] = 7;
    const copy = toBufferSource(shared);
    expect(copy.buffer).toBeInstanceOf(ArrayBuffer);
    expect(copy).toEqual(new Uint8Array([7, 0]));
  });
});
