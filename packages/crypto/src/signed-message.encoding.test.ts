import { describe, expect, it } from 'vitest';
import { bytesToHex } from './bytes.util.js';
import { InvalidArgumentError } from './crypto.errors.js';
import { encodeSignedMessage, SIGNED_LABELS } from './signed-message.encoding.js';

describe('encodeSignedMessage', () => {
  it('is u8 label length, label, u32 count, then u32-length-prefixed fields', () => {
    const bytes = encodeSignedMessage(SIGNED_LABELS.pinSet, ['é', 258, new Uint8Array([0xff])]);
    expect(bytesToHex(bytes)).toBe(
      '11' + // 17 = length of "coffer-v1/pin-set"
        bytesToHex(new TextEncoder().encode('coffer-v1/pin-set')) +
        '00000003' + // three fields
        '00000002c3a9' + // "é" in UTF-8
        '000000080000000000000102' + // 258 as u64
        '00000001ff',
    );
  });

  it('is injective where naive concatenation is not', () => {
    const a = encodeSignedMessage(SIGNED_LABELS.shareGrant, ['ab', 'c']);
    const b = encodeSignedMessage(SIGNED_LABELS.shareGrant, ['a', 'bc']);
    const c = encodeSignedMessage(SIGNED_LABELS.shareGrant, ['abc']);
    const d = encodeSignedMessage(SIGNED_LABELS.shareGrant, ['abc', '']);
    const hexes = [a, b, c, d].map(bytesToHex);
    expect(new Set(hexes).size).toBe(4);
  });

  it('separates record types by label', () => {
    const fields = ['x', 1];
    expect(bytesToHex(encodeSignedMessage(SIGNED_LABELS.fileManifest, fields))).not.toBe(
      bytesToHex(encodeSignedMessage(SIGNED_LABELS.shareGrant, fields)),
    );
  });

  it('takes only non-negative safe integers', () => {
    expect(() => encodeSignedMessage(SIGNED_LABELS.pinSet, [-1])).toThrow(InvalidArgumentError);
    expect(() => encodeSignedMessage(SIGNED_LABELS.pinSet, [1.5])).toThrow(InvalidArgumentError);
    expect(bytesToHex(encodeSignedMessage(SIGNED_LABELS.pinSet, [Number.MAX_SAFE_INTEGER])).slice(-16)).toBe(
      '001fffffffffffff',
    );
  });
});
