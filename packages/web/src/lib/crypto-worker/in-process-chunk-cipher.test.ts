import { decryptChunk, encryptChunk, generateFileKey, IntegrityError } from '@coffer/crypto';
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

  it("answers the SHA-256 of the slice's plaintext only when asked (resumable uploads)", async () => {
    const cipher = createInProcessChunkCipher();
    const key = await generateFileKey();
    const source = new Blob(['0123456789abcdef']);
    const plain = await cipher.encryptSlice(key, 0, true, source, 4, 10);
    expect(plain.plaintextSha256).toBeUndefined();
    const hashed = await cipher.encryptSlice(key, 0, true, source, 4, 10, { hashPlaintext: true });
    const expected = new Uint8Array(
      await crypto.subtle.digest('SHA-256', new TextEncoder().encode('456789')),
    );
    expect(hashed.plaintextSha256).toEqual(expected);
    const decrypted = await decryptChunk(key, 0, true, new Uint8Array([...hashed.iv, ...hashed.ciphertext]));
    expect(new TextDecoder().decode(decrypted)).toBe('456789');
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
