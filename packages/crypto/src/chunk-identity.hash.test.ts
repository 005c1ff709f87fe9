import { createCipheriv, createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bytesToHex } from './bytes.util.js';
import {
  generateChunkIdentityKey,
  gmacPieceList,
  HASH_PIECE_BYTES,
  PIECE_MAC_BYTES,
  pieceIdentityBuilder,
  pieceIdentityOf,
  sha256PieceList,
} from './chunk-identity.hash.js';

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

describe('gmacPieceList', () => {
  const nonce = (chunk: number, piece: number): Uint8Array<ArrayBuffer> => {
    const bytes = new Uint8Array(12);
    const view = new DataView(bytes.buffer);
    view.setUint32(0, chunk);
    view.setUint32(4, piece);
    return bytes;
  };
  const gmac = async (key: CryptoKey, iv: Uint8Array<ArrayBuffer>, data: Uint8Array<ArrayBuffer>) =>
    new Uint8Array(
      await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: data }, key, new Uint8Array(0)),
    );

  it('is SHA-256 over the GMAC of each piece, a nonce per chunk and piece', async () => {
    const key = await generateChunkIdentityKey();
    const bytes = new Uint8Array(2 * HASH_PIECE_BYTES + 5).map((_, i) => i % 253);
    const tags = [
      await gmac(key, nonce(7, 0), bytes.slice(0, HASH_PIECE_BYTES)),
      await gmac(key, nonce(7, 1), bytes.slice(HASH_PIECE_BYTES, 2 * HASH_PIECE_BYTES)),
      await gmac(key, nonce(7, 2), bytes.slice(2 * HASH_PIECE_BYTES)),
    ];
    const list = new Uint8Array(3 * PIECE_MAC_BYTES);
    tags.forEach((tag, i) => {
      list.set(tag, i * PIECE_MAC_BYTES);
    });
    expect(bytesToHex(await gmacPieceList(key, 7, bytes))).toBe(await sha256Hex(list));
  });

  it('differs by key, by chunk index and by one byte of a later piece', async () => {
    const [one, two] = [await generateChunkIdentityKey(), await generateChunkIdentityKey()];
    const a = new Uint8Array(HASH_PIECE_BYTES + 10);
    const b = a.slice();
    b[HASH_PIECE_BYTES + 3] = 1;
    const of = async (key: CryptoKey, chunk: number, bytes: Uint8Array) =>
      bytesToHex(await gmacPieceList(key, chunk, bytes));
    const base = await of(one, 0, a);
    expect(await of(one, 0, a)).toBe(base);
    expect(await of(two, 0, a)).not.toBe(base);
    expect(await of(one, 1, a)).not.toBe(base);
    expect(await of(one, 0, b)).not.toBe(base);
  });

  it('tells apart chunks whose pieces differ so that their GHASH differences would cancel', async () => {
    // The same 16 bytes XORed into block 1 of piece 0 and block 0 of piece 1: under a GMAC over the
    // pieces' tags with the same key (the first version of this scheme), the two differences add up
    // to a polynomial in the hash subkey that is zero for every key, and the identities were equal.
    const a = new Uint8Array(3 * HASH_PIECE_BYTES).map((_, i) => (i * 31 + 7) & 0xff);
    const b = a.slice();
    for (let k = 0; k < 16; k++) {
      b[16 + k] = (b[16 + k] ?? 0) ^ (0x5a + k);
      b[HASH_PIECE_BYTES + k] = (b[HASH_PIECE_BYTES + k] ?? 0) ^ (0x5a + k);
    }
    for (let run = 0; run < 3; run++) {
      const key = await generateChunkIdentityKey();
      expect(bytesToHex(await gmacPieceList(key, 7, b))).not.toBe(bytesToHex(await gmacPieceList(key, 7, a)));
    }
  });

  it('identifies empty input as one empty piece', async () => {
    const key = await generateChunkIdentityKey();
    const emptyTag = await gmac(key, nonce(0, 0), new Uint8Array(0));
    expect(bytesToHex(await gmacPieceList(key, 0, new Uint8Array(0)))).toBe(await sha256Hex(emptyTag));
  });

  it("reproduces the vectors of docs/encryption.md, which Node's own AES-GCM computes too", async () => {
    const raw = Uint8Array.from({ length: 32 }, (_, i) => i);
    const key = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt']);
    const bytes = Uint8Array.from({ length: 2 * HASH_PIECE_BYTES + 5 }, (_, i) => i % 251);
    const vectors = [
      { chunk: 7, input: bytes, hex: '65709f701f646823a2dfae6f7718a820493b5871e1fad19ed87506569993be18' },
      {
        chunk: 0,
        input: new Uint8Array(0),
        hex: 'bcd1bd87fc7415c104a9788cdf6a07389a2ff16320b6036787301c26f9507e0d',
      },
    ];
    for (const { chunk, input, hex } of vectors) {
      expect(bytesToHex(await gmacPieceList(key, chunk, input))).toBe(hex);
      // Node's crypto, from the rules alone: a GMAC per piece, nonce = chunk ‖ piece ‖ 0, SHA-256 of the tags.
      const tags: Buffer[] = [];
      for (let piece = 0; piece === 0 || piece * HASH_PIECE_BYTES < input.length; piece++) {
        const nonce = Buffer.alloc(12);
        nonce.writeUInt32BE(chunk, 0);
        nonce.writeUInt32BE(piece, 4);
        const gcm = createCipheriv('aes-256-gcm', raw, nonce);
        gcm.setAAD(input.subarray(piece * HASH_PIECE_BYTES, (piece + 1) * HASH_PIECE_BYTES));
        gcm.final();
        tags.push(gcm.getAuthTag());
      }
      expect(createHash('sha256').update(Buffer.concat(tags)).digest('hex')).toBe(hex);
    }
  });

  it('makes a key that cannot be exported', async () => {
    const key = await generateChunkIdentityKey();
    expect(key.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow();
  });
});

describe('pieceIdentityBuilder', () => {
  it('gives the same identity when pieces are added without waiting for each', async () => {
    const key = await generateChunkIdentityKey();
    const bytes = new Uint8Array(3 * HASH_PIECE_BYTES).map((_, i) => (i * 7) % 256);
    for (const identity of [
      { scheme: 'sha256-pieces' } as const,
      { scheme: 'gmac-pieces', key, chunkIndex: 2 } as const,
    ]) {
      const builder = pieceIdentityBuilder(identity);
      const adding = [0, 1, 2].map((piece) =>
        builder.addPiece(bytes.subarray(piece * HASH_PIECE_BYTES, (piece + 1) * HASH_PIECE_BYTES)),
      );
      await Promise.all(adding);
      expect(bytesToHex(await builder.finish())).toBe(bytesToHex(await pieceIdentityOf(identity, bytes)));
    }
  });

  it('fails every later step once a piece fails, and leaves no rejection unhandled', async () => {
    const unhandled: unknown[] = [];
    const note = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', note);
    try {
      // A key that may not encrypt: every piece's GMAC fails.
      const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['decrypt']);
      const builder = pieceIdentityBuilder({ scheme: 'gmac-pieces', key, chunkIndex: 0 });
      const adding = [0, 1, 2].map(() => builder.addPiece(new Uint8Array(16)));
      await expect(Promise.all(adding)).rejects.toThrow();
      await expect(builder.finish()).rejects.toThrow();
      // A builder given up at the first failure, as a failed seal gives it up.
      const abandoned = pieceIdentityBuilder({ scheme: 'gmac-pieces', key, chunkIndex: 0 });
      await expect(abandoned.addPiece(new Uint8Array(16))).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', note);
    }
  });

  it('finishes an empty chunk when called detached from the builder', async () => {
    const { finish } = pieceIdentityBuilder({ scheme: 'sha256-pieces' });
    expect(bytesToHex(await finish())).toBe(bytesToHex(await sha256PieceList(new Uint8Array(0))));
  });

  it('refuses a piece larger than HASH_PIECE_BYTES', () => {
    const builder = pieceIdentityBuilder({ scheme: 'sha256-pieces' });
    expect(() => builder.addPiece(new Uint8Array(HASH_PIECE_BYTES + 1))).toThrow(RangeError);
  });
});
