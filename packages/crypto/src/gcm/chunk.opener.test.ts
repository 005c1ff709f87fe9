import { describe, expect, it } from 'vitest';
import { concatBytes } from '../bytes.util.js';
import { chunkAad, decryptChunk, sealChunk } from '../chunk.cipher.js';
import { IntegrityError, InvalidArgumentError } from '../crypto.errors.js';
import { generateFileKey } from '../file-key.wrap.js';
import { createChunkOpener, createVerifiedChunkOpener, type ChunkOpenerOptions } from './chunk.opener.js';
import {
  cut,
  firstDifference,
  importKey,
  oneShotSeal,
  randomBytes,
  sealInSlices,
  sliceLengths,
} from './gcm.test-helpers.js';

const MiB = 1024 * 1024;

interface Sealed {
  key: CryptoKey;
  iv: Uint8Array<ArrayBuffer>;
  aad: Uint8Array<ArrayBuffer>;
  plain: Uint8Array<ArrayBuffer>;
  ciphertext: Uint8Array<ArrayBuffer>;
  tag: Uint8Array<ArrayBuffer>;
}

async function sealedSample(length: number): Promise<Sealed> {
  const key = await importKey(randomBytes(32));
  const [iv, aad, plain] = [randomBytes(12), randomBytes(14), randomBytes(length)];
  const sealed = await oneShotSeal(key, iv, aad, plain);
  return { key, iv, aad, plain, ciphertext: sealed.slice(0, length), tag: sealed.slice(length) };
}

/** Verify pass, then (if authentic) decrypt pass; null when verification refused the chunk. */
async function openInSlices(
  s: Pick<Sealed, 'key' | 'iv' | 'aad' | 'ciphertext' | 'tag'>,
  lengths: readonly number[],
  options?: ChunkOpenerOptions,
): Promise<Uint8Array | null> {
  const opener = await createChunkOpener(s.key, s.iv, s.aad, s.ciphertext.length, options);
  const slices = cut(s.ciphertext, lengths);
  if (!(await opener.verifyChunk(slices, s.tag))) return null;
  const outputs: Uint8Array[] = [];
  for (const slice of slices) outputs.push(await opener.decryptSlice(slice));
  return concatBytes(outputs);
}

describe('createChunkOpener: verify, then decrypt', () => {
  it.each([0, 1, 16, 17, 4095, MiB + 7, 3 * MiB])(
    'opens %i bytes sealed one-shot',
    { timeout: 30_000 },
    async (length) => {
      const s = await sealedSample(length);
      for (const slice of length <= 4096 ? [16, 1024] : [64 * 1024, MiB]) {
        for (const immutableSource of [false, true]) {
          const plain = await openInSlices(s, sliceLengths(length, slice), { immutableSource });
          expect(plain === null ? 'refused' : firstDifference(plain, s.plain)).toBe(-1);
        }
      }
    },
  );

  it('takes the slices from an async source (as read from a Blob)', async () => {
    const s = await sealedSample(200_000);
    const opener = await createChunkOpener(s.key, s.iv, s.aad, s.ciphertext.length, {
      immutableSource: true,
    });
    const blob = new Blob([s.ciphertext]);
    async function* read(): AsyncGenerator<Uint8Array> {
      for (let offset = 0; offset < blob.size; offset += 65_536) {
        yield new Uint8Array(await blob.slice(offset, offset + 65_536).arrayBuffer());
      }
    }
    expect(await opener.verifyChunk(read(), s.tag)).toBe(true);
  });

  it('verifies slice by slice as received, then decrypts in other slices from an immutable source', async () => {
    for (const length of [0, 15, 70_000, 200_003]) {
      const s = await sealedSample(length);
      const opener = await createChunkOpener(s.key, s.iv, s.aad, length, { immutableSource: true });
      for (const slice of cut(s.ciphertext, sliceLengths(length, 4096))) await opener.verifySlice(slice);
      expect(opener.verifyTag(s.tag)).toBe(true);
      const outputs: Uint8Array[] = [];
      for (const slice of cut(s.ciphertext, sliceLengths(length, 65_536))) {
        outputs.push(await opener.decryptSlice(slice));
      }
      expect(firstDifference(concatBytes(outputs), s.plain)).toBe(-1);
    }
  });

  it('refuses, slice by slice, a changed slice, a chunk not given whole, and a second verification', async () => {
    const s = await sealedSample(100_000);
    const slices = cut(s.ciphertext, sliceLengths(s.ciphertext.length, 16_384));
    const changed = await createChunkOpener(s.key, s.iv, s.aad, s.ciphertext.length);
    for (const [i, slice] of slices.entries()) {
      await changed.verifySlice(i === 3 ? slice.map((byte, at) => (at === 9 ? byte ^ 1 : byte)) : slice);
    }
    expect(changed.verifyTag(s.tag)).toBe(false);
    await expect(changed.decryptSlice(slices[0] ?? s.ciphertext)).rejects.toThrow(InvalidArgumentError);

    const short = await createChunkOpener(s.key, s.iv, s.aad, s.ciphertext.length);
    for (const slice of slices.slice(0, -1)) await short.verifySlice(slice);
    expect(short.verifyTag(s.tag)).toBe(false);

    const once = await createChunkOpener(s.key, s.iv, s.aad, s.ciphertext.length);
    for (const slice of slices) await once.verifySlice(slice);
    expect(once.verifyTag(s.tag)).toBe(true);
    expect(() => once.verifyTag(s.tag)).toThrow(InvalidArgumentError);
    await expect(once.verifySlice(slices[0] ?? s.ciphertext)).rejects.toThrow(InvalidArgumentError);
  });

  it.each([
    ['a ciphertext bit', (s: Sealed) => (s.ciphertext[70_000] = (s.ciphertext[70_000] ?? 0) ^ 0x10)],
    [
      'the last ciphertext byte',
      (s: Sealed) => (s.ciphertext[s.ciphertext.length - 1] = (s.ciphertext.at(-1) ?? 0) ^ 1),
    ],
    ['a tag bit', (s: Sealed) => (s.tag[0] = (s.tag[0] ?? 0) ^ 0x80)],
    ['the AAD (another chunk index)', (s: Sealed) => (s.aad[12] = (s.aad[12] ?? 0) ^ 1)],
    ['the IV', (s: Sealed) => (s.iv[0] = (s.iv[0] ?? 0) ^ 1)],
  ])('refuses the chunk when %s changed, and releases no plaintext', async (_what, tamper) => {
    const s = await sealedSample(150_001);
    tamper(s);
    const opener = await createChunkOpener(s.key, s.iv, s.aad, s.ciphertext.length);
    const slices = cut(s.ciphertext, sliceLengths(s.ciphertext.length, 65_536));
    expect(await opener.verifyChunk(slices, s.tag)).toBe(false);
    await expect(opener.decryptSlice(slices[0] ?? new Uint8Array(0))).rejects.toThrow(InvalidArgumentError);
  });

  it('refuses a truncated tag, and a ciphertext cut short or extended', async () => {
    const s = await sealedSample(4096);
    expect(await openInSlices({ ...s, tag: s.tag.subarray(0, 12) }, [4096])).toBeNull();
    const opener = await createChunkOpener(s.key, s.iv, s.aad, 4096);
    await expect(opener.verifyChunk([s.ciphertext.subarray(0, 4080)], s.tag)).rejects.toThrow(
      InvalidArgumentError,
    );
    const longer = await createChunkOpener(s.key, s.iv, s.aad, 4096);
    await expect(longer.verifyChunk([s.ciphertext, new Uint8Array(1)], s.tag)).rejects.toThrow(
      InvalidArgumentError,
    );
  });

  it('decrypts nothing before verification, and verifies once', async () => {
    const s = await sealedSample(64);
    const opener = await createChunkOpener(s.key, s.iv, s.aad, 64);
    await expect(opener.decryptSlice(s.ciphertext)).rejects.toThrow(InvalidArgumentError);
    expect(await opener.verifyChunk([s.ciphertext], s.tag)).toBe(true);
    await expect(opener.verifyChunk([s.ciphertext], s.tag)).rejects.toThrow(InvalidArgumentError);
    await expect(opener.decryptSlice(s.ciphertext.subarray(0, 32))).rejects.toThrow(InvalidArgumentError);
    expect(firstDifference(await opener.decryptSlice(s.ciphertext), s.plain)).toBe(-1);
  });

  it('refuses a decrypt pass whose bytes differ from the verified ones (a source that changed)', async () => {
    const s = await sealedSample(3 * 65_536);
    const opener = await createChunkOpener(s.key, s.iv, s.aad, s.ciphertext.length);
    const slices = cut(s.ciphertext, sliceLengths(s.ciphertext.length, 65_536));
    expect(await opener.verifyChunk(slices, s.tag)).toBe(true);
    expect(
      firstDifference(await opener.decryptSlice(slices[0] ?? s.ciphertext), s.plain.subarray(0, 65_536)),
    ).toBe(-1);
    const changed = new Uint8Array(slices[1] ?? s.ciphertext);
    changed[5] = (changed[5] ?? 0) ^ 4;
    await expect(opener.decryptSlice(changed)).rejects.toThrow(IntegrityError);
    await expect(opener.decryptSlice(slices[2] ?? s.ciphertext)).rejects.toThrow(InvalidArgumentError);
  });
});

describe('the coffer-v1 chunk format, computed in slices', () => {
  it(
    'sealChunk output opens in slices, and sliced output opens with decryptChunk',
    { timeout: 30_000 },
    async () => {
      const fileKey = await generateFileKey();
      for (const [index, isLast, length] of [
        [0, false, 2 * MiB],
        [7, true, MiB + 13],
        [0, true, 0],
      ] as const) {
        const aad = chunkAad(index, isLast);
        const plain = randomBytes(length);
        const oneShot = await sealChunk(fileKey, index, isLast, plain);
        const { ivBytes: iv, ciphertextBytes } = oneShot;
        const ciphertext = ciphertextBytes.subarray(0, length);
        const tag = ciphertextBytes.subarray(length);
        const lengths = sliceLengths(length, MiB);
        const opened = await openInSlices({ key: fileKey, iv, aad, ciphertext, tag }, lengths);
        expect(opened === null ? 'refused' : firstDifference(opened, plain)).toBe(-1);
        // Another chunk's AAD (index or last flag) is refused, as one-shot GCM refuses it.
        const otherAad = chunkAad(index + 1, isLast);
        expect(await openInSlices({ key: fileKey, iv, aad: otherAad, ciphertext, tag }, lengths)).toBeNull();

        const streamed = await sealInSlices(fileKey, iv, aad, plain, lengths);
        expect(firstDifference(streamed, ciphertextBytes)).toBe(-1);
        const decrypted = await decryptChunk(fileKey, index, isLast, concatBytes([iv, streamed]));
        expect(firstDifference(decrypted, plain)).toBe(-1);
      }
    },
  );
});

describe('createVerifiedChunkOpener: the decrypt pass of a chunk verified in another thread', () => {
  it('decrypts slices cut anywhere on block boundaries, the same plaintext as one-shot', async () => {
    const s = await sealedSample(3 * 64 * 1024 + 5);
    const opener = await createVerifiedChunkOpener(s.key, s.iv, s.aad, s.ciphertext.length);
    const outputs: Uint8Array[] = [];
    for (const slice of cut(s.ciphertext, sliceLengths(s.ciphertext.length, 48 * 1024)))
      outputs.push(await opener.decryptSlice(slice));
    expect(firstDifference(concatBytes(outputs), s.plain)).toBe(-1);
  });

  it('is past its verify pass: a verify call is refused', async () => {
    const s = await sealedSample(64);
    const opener = await createVerifiedChunkOpener(s.key, s.iv, s.aad, s.ciphertext.length);
    const asTwoPass = opener as unknown as { verifySlice(slice: Uint8Array): Promise<void> };
    await expect(asTwoPass.verifySlice(s.ciphertext)).rejects.toBeInstanceOf(InvalidArgumentError);
  });
});
