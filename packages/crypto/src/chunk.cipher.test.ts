import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from './bytes.util.js';
import { chunkAad, decryptChunk, encryptChunk, sealChunk } from './chunk.cipher.js';
import { IntegrityError, InvalidArgumentError } from './crypto.errors.js';
import { generateFileKey } from './file-key.wrap.js';

describe('chunk AAD', () => {
  it('is "coffer-v1" || uint32 BE index || last flag', () => {
    expect(bytesToHex(chunkAad(0, false))).toBe('636f666665722d7631' + '00000000' + '00');
    expect(bytesToHex(chunkAad(1, true))).toBe('636f666665722d7631' + '00000001' + '01');
    expect(bytesToHex(chunkAad(0x01020304, false))).toBe('636f666665722d7631' + '01020304' + '00');
    expect(bytesToHex(chunkAad(0xffffffff, true))).toBe('636f666665722d7631' + 'ffffffff' + '01');
  });

  it.each([-1, 1.5, 2 ** 32, Number.NaN])('rejects index %s', (index) => {
    expect(() => chunkAad(index, false)).toThrow(InvalidArgumentError);
  });
});

describe('encryptChunk / decryptChunk', () => {
  it('stores iv || ciphertext || tag, 28 bytes longer than the plaintext', async () => {
    const fileKey = await generateFileKey();
    const iv = hexToBytes('000102030405060708090a0b');
    const plaintext = new TextEncoder().encode('chunk');
    const chunk = await encryptChunk(fileKey, 3, false, plaintext, iv);
    expect(chunk.length).toBe(plaintext.length + 28);
    expect(chunk.subarray(0, 12)).toEqual(iv);
    expect(await decryptChunk(fileKey, 3, false, chunk)).toEqual(plaintext);
  });

  it('draws a random IV by default', async () => {
    const fileKey = await generateFileKey();
    const a = await encryptChunk(fileKey, 0, true, new Uint8Array(0));
    const b = await encryptChunk(fileKey, 0, true, new Uint8Array(0));
    expect(a.length).toBe(28);
    expect(a.subarray(0, 12)).not.toEqual(b.subarray(0, 12));
  });

  it('fails with IntegrityError for another index, last flag or key, or a short chunk', async () => {
    const fileKey = await generateFileKey();
    const chunk = await encryptChunk(fileKey, 1, false, new Uint8Array(100));
    await expect(decryptChunk(fileKey, 2, false, chunk)).rejects.toThrow(IntegrityError);
    await expect(decryptChunk(fileKey, 1, true, chunk)).rejects.toThrow(IntegrityError);
    await expect(decryptChunk(await generateFileKey(), 1, false, chunk)).rejects.toThrow(IntegrityError);
    await expect(decryptChunk(fileKey, 1, false, chunk.subarray(0, 27))).rejects.toThrow(IntegrityError);
    await expect(decryptChunk(fileKey, 1, false, chunk.subarray(0, 28))).rejects.toThrow(IntegrityError);
  });

  it('lets the caller release the input once the call returns (WebCrypto has copied it)', async () => {
    const key = await generateFileKey();
    const plain = new Uint8Array([1, 2, 3, 4, 5]);
    const input = plain.slice();
    const sealing = sealChunk(key, 3, false, input);
    // Detach the buffer as the crypto worker does (ArrayBuffer.prototype.transfer where available).
    structuredClone(input.buffer, { transfer: [input.buffer] });
    expect(input.byteLength).toBe(0);
    const sealed = await sealing;
    const chunk = new Uint8Array([...sealed.ivBytes, ...sealed.ciphertextBytes]);
    const encrypted = chunk.slice();
    const decrypting = decryptChunk(key, 3, false, encrypted);
    structuredClone(encrypted.buffer, { transfer: [encrypted.buffer] });
    expect([...(await decrypting)]).toEqual([...plain]);
  });

  it('decrypts a chunk that is a view into a larger buffer', async () => {
    const fileKey = await generateFileKey();
    const chunk = await encryptChunk(fileKey, 0, true, new Uint8Array([1, 2, 3]));
    const padded = new Uint8Array(chunk.length + 10);
    padded.set(chunk, 5);
    expect(await decryptChunk(fileKey, 0, true, padded.subarray(5, 5 + chunk.length))).toEqual(
      new Uint8Array([1, 2, 3]),
    );
  });

  it('rejects an IV that is not 12 bytes', async () => {
    const fileKey = await generateFileKey();
    await expect(encryptChunk(fileKey, 0, true, new Uint8Array(1), new Uint8Array(16))).rejects.toThrow(
      InvalidArgumentError,
    );
  });
});
