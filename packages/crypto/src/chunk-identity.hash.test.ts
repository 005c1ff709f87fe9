import { describe, expect, it } from 'vitest';
import { bytesToHex } from './bytes.util.js';
import { HASH_PIECE_BYTES, sha256PieceList } from './chunk-identity.hash.js';

const sha256Hex = async (bytes: Uint8Array<ArrayBuffer>): Promise<string> =>
  bytesToHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));

describe('sha256PieceList', () => {
  it('is SHA-256 over the SHA-256 of each 256 KiB piece', async () => {
    const bytes = new Uint8Array(2 * HASH_PIECE_BYTES + 5).map((_, i) => i % 251);
    const pieces = [
      bytes.subarray(0, HASH_PIECE_BYTES),
      bytes.subarray(HASH_PIECE_BYTES, 2 * HASH_PIECE_BYTES),
      bytes.subarray(2 * HASH_PIECE_BYTES),
    ];
    const list = new Uint8Array(96);
    for (const [i, piece] of pieces.entries()) {
      list.set(new Uint8Array(await crypto.subtle.digest('SHA-256', piece.slice())), i * 32);
    }
    expect(bytesToHex(await sha256PieceList(bytes))).toBe(await sha256Hex(list));
  });

  it('hashes empty input as one empty piece, and differs from plain SHA-256', async () => {
    const empty = new Uint8Array(0);
    const emptyDigest = new Uint8Array(await crypto.subtle.digest('SHA-256', empty));
    expect(bytesToHex(await sha256PieceList(empty))).toBe(await sha256Hex(emptyDigest));
    expect(bytesToHex(await sha256PieceList(empty))).not.toBe(await sha256Hex(empty));
  });

  it('tells apart inputs that differ in one byte of a later piece', async () => {
    const a = new Uint8Array(HASH_PIECE_BYTES + 10);
    const b = a.slice();
    b[HASH_PIECE_BYTES + 3] = 1;
    expect(bytesToHex(await sha256PieceList(a))).not.toBe(bytesToHex(await sha256PieceList(b)));
  });

  it('hashes a view by its own bytes, not its whole buffer', async () => {
    const buffer = new Uint8Array(100).fill(9);
    const view = buffer.subarray(10, 20);
    expect(bytesToHex(await sha256PieceList(view))).toBe(bytesToHex(await sha256PieceList(view.slice())));
  });
});
