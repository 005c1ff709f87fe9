import {
  decryptChunk,
  encryptChunk,
  generateChunkIdentityKey,
  generateFileKey,
  gmacPieceList,
  IntegrityError,
  sha256PieceList,
} from '@coffer/crypto';
import { describe, expect, it } from 'vitest';
import { CryptoWorkerError } from './chunk-cipher';
import { createInProcessChunkCipher } from './in-process-chunk-cipher';

describe('in-process chunk cipher', () => {
  it('decrypts chunks made by @coffer/crypto, and detaches the input like a transfer', async () => {
    const cipher = createInProcessChunkCipher();
    const key = await generateFileKey();
    const encrypted = await encryptChunk(key, 0, true, new Uint8Array([9, 8, 7]));
    const input = encrypted.slice().buffer;
    const plain = await cipher.decrypt(key, 0, true, input);
    expect(input.byteLength).toBe(0);
    expect([...plain]).toEqual([9, 8, 7]);
  });

  it('reports a chunk that does not verify as IntegrityError', async () => {
    const cipher = createInProcessChunkCipher();
    const key = await generateFileKey();
    const encrypted = await encryptChunk(key, 0, true, new Uint8Array([9, 8, 7]));
    await expect(cipher.decrypt(key, 0, false, encrypted.slice().buffer)).rejects.toBeInstanceOf(
      IntegrityError,
    );
    encrypted[20] = (encrypted[20] ?? 0) ^ 1;
    await expect(cipher.decrypt(key, 0, true, encrypted.slice().buffer)).rejects.toBeInstanceOf(
      IntegrityError,
    );
  });

  it('reports other failures as CryptoWorkerError', async () => {
    const cipher = createInProcessChunkCipher();
    const hmacKey = await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    await expect(cipher.encryptSlice(hmacKey, 0, true, new Blob(['x']), 0, 1)).rejects.toBeInstanceOf(
      CryptoWorkerError,
    );
  });

  it("answers the hash of the slice's plaintext only when asked, in the scheme asked for", async () => {
    const cipher = createInProcessChunkCipher();
    const key = await generateFileKey();
    const source = new Blob(['0123456789abcdef']);
    const plaintext = new TextEncoder().encode('456789');
    const plain = await cipher.encryptSlice(key, 0, true, source, 4, 10);
    expect(plain.plaintextHash).toBeUndefined();
    const pieces = await cipher.encryptSlice(key, 0, true, source, 4, 10, {
      hashPlaintext: { scheme: 'sha256-pieces' },
    });
    expect(pieces.plaintextHash).toEqual(await sha256PieceList(plaintext));
    const hashKey = await generateChunkIdentityKey();
    const keyed = await cipher.encryptSlice(key, 5, true, source, 4, 10, {
      hashPlaintext: { scheme: 'gmac-pieces', key: hashKey },
    });
    expect(keyed.plaintextHash).toEqual(await gmacPieceList(hashKey, 5, plaintext));
    const legacy = await cipher.encryptSlice(key, 0, true, source, 4, 10, {
      hashPlaintext: { scheme: 'sha256' },
    });
    expect(legacy.plaintextHash).toEqual(new Uint8Array(await crypto.subtle.digest('SHA-256', plaintext)));
    const decrypted = await decryptChunk(key, 0, true, new Uint8Array([...pieces.iv, ...pieces.ciphertext]));
    expect(new TextDecoder().decode(decrypted)).toBe('456789');
  });

  it('encrypts chunks of different sizes one after another (the read buffer is reused)', async () => {
    const cipher = createInProcessChunkCipher();
    const key = await generateFileKey();
    const bytes = new Uint8Array(3000).map((_, i) => i % 253);
    const file = new Blob([bytes]);
    for (const [index, start, end] of [
      [0, 0, 1000],
      [2, 2000, 3000],
      [1, 1000, 2000],
      [3, 2990, 3000],
    ] as const) {
      const { iv, ciphertext } = await cipher.encryptSlice(key, index, false, file, start, end);
      const decrypted = await decryptChunk(key, index, false, new Uint8Array([...iv, ...ciphertext]));
      expect(decrypted).toEqual(bytes.slice(start, end));
    }
  });

  it('encrypts a slice of a Blob into bytes that @coffer/crypto decrypts', async () => {
    const cipher = createInProcessChunkCipher();
    const key = await generateFileKey();
    const file = new Blob([new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7])]);
    const { iv, ciphertext } = await cipher.encryptSlice(key, 1, true, file, 2, 6);
    expect([iv.length, ciphertext.length]).toEqual([12, 4 + 16]);
    const chunk = new Uint8Array([...iv, ...ciphertext]);
    expect([...(await decryptChunk(key, 1, true, chunk))]).toEqual([2, 3, 4, 5]);
    // Two encryptions of the same slice use fresh IVs.
    const again = await cipher.encryptSlice(key, 1, true, file, 2, 6);
    expect(again.iv).not.toEqual(iv);
  });
});
