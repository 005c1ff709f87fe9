import { describe, expect, it, vi } from 'vitest';
import { bytesToHex, concatBytes, hexToBytes } from '../bytes.util.js';
import { InvalidArgumentError } from '../crypto.errors.js';
import { createChunkSealer } from './chunk.sealer.js';
import { GCM_SPEC_CASES } from './gcm-spec.vectors.js';
import {
  firstDifference,
  importKey,
  oneShotSeal,
  randomBytes,
  sealInSlices,
  sliceLengths,
} from './gcm.test-helpers.js';

const MiB = 1024 * 1024;

describe('createChunkSealer against the GCM specification', () => {
  // Node's WebCrypto refuses IVs shorter than 96 bits (case 17); the GHASH tests cover that case.
  const cases = GCM_SPEC_CASES.filter((tc) => tc.keyHex.length === 64 && tc.ivHex.length >= 24);
  it.each(cases)('test case $n sealed in 16-byte slices is ciphertext ‖ tag', async (tc) => {
    const key = await importKey(hexToBytes(tc.keyHex));
    const plain = hexToBytes(tc.plainHex);
    const sealed = await sealInSlices(
      key,
      hexToBytes(tc.ivHex),
      hexToBytes(tc.aadHex),
      plain,
      sliceLengths(plain.length, 16),
    );
    expect(bytesToHex(sealed)).toBe(tc.cipherHex + tc.tagHex);
  });
});

describe('createChunkSealer against one-shot WebCrypto', () => {
  const lengths = [0, 1, 15, 16, 17, 31, 32, 33, 255, 4096, 65_537, MiB - 1, MiB, MiB + 1, 3 * MiB + 5];
  it.each(lengths)('%i bytes, several slice sizes', { timeout: 30_000 }, async (length) => {
    const key = await importKey(randomBytes(32));
    const iv = randomBytes(12);
    const aad = randomBytes(14);
    const plain = randomBytes(length);
    const expected = await oneShotSeal(key, iv, aad, plain);
    const slices = length <= 65_537 ? [16, 48, 4096] : [64 * 1024, 256 * 1024, MiB];
    for (const slice of slices) {
      expect(
        firstDifference(await sealInSlices(key, iv, aad, plain, sliceLengths(length, slice)), expected),
      ).toBe(-1);
    }
  });

  it('random lengths and slices, uneven slice sizes, 12- and 16-byte IVs', { timeout: 60_000 }, async () => {
    for (let round = 0; round < 12; round++) {
      const key = await importKey(randomBytes(32));
      const iv = randomBytes(round % 3 === 0 ? 16 : 12);
      const aad = randomBytes(Math.floor(Math.random() * 40));
      const plain = randomBytes(Math.floor(Math.random() * 2 * MiB));
      const lengths: number[] = [];
      let left = plain.length;
      while (left > 0) {
        const next = Math.min(left, 16 * (1 + Math.floor(Math.random() * 65_536)));
        lengths.push(next);
        left -= next;
      }
      if (lengths.length === 0) lengths.push(0);
      const streamed = await sealInSlices(key, iv, aad, plain, lengths);
      expect(firstDifference(streamed, await oneShotSeal(key, iv, aad, plain))).toBe(-1);
    }
  });

  it('a 5 MiB chunk in 1 MiB slices and in one 4 MiB slice plus the rest', { timeout: 30_000 }, async () => {
    const key = await importKey(randomBytes(32));
    const [iv, aad, plain] = [randomBytes(12), randomBytes(14), randomBytes(5 * MiB + 3)];
    const expected = await oneShotSeal(key, iv, aad, plain);
    expect(
      firstDifference(await sealInSlices(key, iv, aad, plain, sliceLengths(plain.length, MiB)), expected),
    ).toBe(-1);
    expect(firstDifference(await sealInSlices(key, iv, aad, plain, [4 * MiB, MiB + 3]), expected)).toBe(-1);
  });
});

describe('createChunkSealer rules', () => {
  it('refuses slices that break the slice rules, and concurrent calls', async () => {
    const key = await importKey(randomBytes(32));
    const sealer = await createChunkSealer(key, randomBytes(12), new Uint8Array(0), 100);
    await expect(sealer.sealSlice(new Uint8Array(20))).rejects.toThrow(InvalidArgumentError);
    await expect(sealer.sealSlice(new Uint8Array(0))).rejects.toThrow(InvalidArgumentError);
    await expect(sealer.sealSlice(new Uint8Array(101))).rejects.toThrow(InvalidArgumentError);
    const first = sealer.sealSlice(new Uint8Array(32));
    await expect(sealer.sealSlice(new Uint8Array(32))).rejects.toThrow(InvalidArgumentError);
    await first;
    expect(sealer.remaining).toBe(68);
    expect((await sealer.sealSlice(new Uint8Array(68))).length).toBe(68 + 16);
    await expect(sealer.sealSlice(new Uint8Array(0))).rejects.toThrow(InvalidArgumentError);
  });

  it('refuses every later slice once a slice failed to seal', async () => {
    const key = await importKey(randomBytes(32));
    const sealer = await createChunkSealer(key, randomBytes(12), new Uint8Array(0), 64);
    const encrypt = crypto.subtle.encrypt.bind(crypto.subtle);
    const spy = vi
      .spyOn(crypto.subtle, 'encrypt')
      .mockRejectedValueOnce(new DOMException('busy', 'OperationError'));
    await expect(sealer.sealSlice(new Uint8Array(32))).rejects.toThrow('busy');
    spy.mockImplementation(encrypt);
    await expect(sealer.sealSlice(new Uint8Array(32))).rejects.toThrow(InvalidArgumentError);
    spy.mockRestore();
  });

  it('refuses a key that is not a 256-bit AES-GCM key, an IV under 12 bytes, a negative length', async () => {
    const aes128 = await crypto.subtle.importKey('raw', randomBytes(16), 'AES-GCM', false, ['encrypt']);
    await expect(createChunkSealer(aes128, randomBytes(12), new Uint8Array(0), 1)).rejects.toThrow(
      InvalidArgumentError,
    );
    const key = await importKey(randomBytes(32));
    for (const ivLength of [0, 8, 11]) {
      await expect(createChunkSealer(key, new Uint8Array(ivLength), new Uint8Array(0), 1)).rejects.toThrow(
        InvalidArgumentError,
      );
    }
    await expect(createChunkSealer(key, randomBytes(12), new Uint8Array(0), -1)).rejects.toThrow(
      InvalidArgumentError,
    );
  });

  it('lets the caller reuse the slice buffer once the call returns, and hands out no slice tag', async () => {
    const key = await importKey(randomBytes(32));
    const [iv, aad, plain] = [randomBytes(12), randomBytes(14), randomBytes(96)];
    const sealer = await createChunkSealer(key, iv, aad, plain.length);
    const buffer = new Uint8Array(48);
    const outputs: Uint8Array[] = [];
    for (let offset = 0; offset < plain.length; offset += 48) {
      buffer.set(plain.subarray(offset, offset + 48));
      const pending = sealer.sealSlice(buffer);
      buffer.fill(0xaa);
      const output = await pending;
      if (offset === 0) expect(new Uint8Array(output.buffer).subarray(48)).toEqual(new Uint8Array(16));
      outputs.push(output);
    }
    expect(concatBytes(outputs)).toEqual(await oneShotSeal(key, iv, aad, plain));
  });
});
