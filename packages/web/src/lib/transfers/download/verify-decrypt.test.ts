import { encryptChunk, generateFileKey, IntegrityError } from '@coffer/crypto';
import { describe, expect, it } from 'vitest';
import { decryptedWhole, decryptVerified, openChunkInSlices } from './decrypt';
import { verifyChunk } from './verify';

const plain = new Uint8Array(1000).map((_, i) => (i * 13 + 5) & 0xff);

async function collect(slices: AsyncIterable<Uint8Array<ArrayBuffer>>): Promise<Uint8Array<ArrayBuffer>[]> {
  const out: Uint8Array<ArrayBuffer>[] = [];
  for await (const slice of slices) out.push(slice.slice());
  return out;
}

async function sealed(index = 2, isLast = false) {
  const key = await generateFileKey();
  return { key, chunk: await encryptChunk(key, index, isLast, plain) };
}

describe('openChunkInSlices', () => {
  it('yields the plaintext slice by slice once the chunk verified', async () => {
    const { key, chunk } = await sealed();
    const slices = await collect(openChunkInSlices(key, 2, false, new Blob([chunk]), 64));
    expect(slices.map((slice) => slice.length)).toEqual([...Array<number>(15).fill(64), 40]);
    expect(new Uint8Array(await new Blob(slices).arrayBuffer())).toEqual(plain);
  });

  it('yields nothing of a chunk whose LAST slice was tampered with: the first slice waits for the whole tag', async () => {
    const { key, chunk } = await sealed();
    const tampered = chunk.slice();
    tampered[12 + 990] = (tampered[12 + 990] ?? 0) ^ 1;
    const yielded: Uint8Array[] = [];
    const opening = (async () => {
      for await (const slice of openChunkInSlices(key, 2, false, new Blob([tampered]), 64))
        yielded.push(slice);
    })();
    await expect(opening).rejects.toBeInstanceOf(IntegrityError);
    expect(yielded).toEqual([]);
  });

  it('refuses a chunk out of place, a wrong tag and one too short to be a chunk', async () => {
    const { key, chunk } = await sealed();
    await expect(collect(openChunkInSlices(key, 3, false, new Blob([chunk]), 64))).rejects.toBeInstanceOf(
      IntegrityError,
    );
    await expect(collect(openChunkInSlices(key, 2, true, new Blob([chunk]), 64))).rejects.toBeInstanceOf(
      IntegrityError,
    );
    const badTag = chunk.slice();
    badTag[badTag.length - 1] = (badTag[badTag.length - 1] ?? 0) ^ 0x80;
    await expect(collect(openChunkInSlices(key, 2, false, new Blob([badTag]), 64))).rejects.toBeInstanceOf(
      IntegrityError,
    );
    await expect(
      collect(openChunkInSlices(key, 2, false, new Blob([chunk.subarray(0, 27)]))),
    ).rejects.toBeInstanceOf(IntegrityError);
  });

  it('opens an empty last chunk (IV and tag only)', async () => {
    const key = await generateFileKey();
    const chunk = await encryptChunk(key, 0, true, new Uint8Array(0));
    const slices = await collect(openChunkInSlices(key, 0, true, new Blob([chunk])));
    expect(slices.reduce((sum, slice) => sum + slice.length, 0)).toBe(0);
  });
});

describe('verify stage: verifyChunk', () => {
  it('answers the verified ciphertext (no IV, no tag) and an opener that decrypts it, nothing decrypted yet', async () => {
    const { key, chunk } = await sealed();
    const verified = await verifyChunk(key, 2, false, new Blob([chunk]), 64);
    expect(verified.ciphertext.size).toBe(plain.length);
    expect(verified.sliceBytes).toBe(64);
    const slices = await collect(decryptVerified(verified));
    expect(new Uint8Array(await new Blob(slices).arrayBuffer())).toEqual(plain);
  });

  it('throws IntegrityError for a tampered chunk, leaving nothing to decrypt', async () => {
    const { key, chunk } = await sealed();
    const tampered = chunk.slice();
    tampered[20] = (tampered[20] ?? 0) ^ 1;
    await expect(verifyChunk(key, 2, false, new Blob([tampered]), 64)).rejects.toBeInstanceOf(IntegrityError);
  });
});

describe('decrypt stage: the whole-chunk fallback', () => {
  it("yields a whole-chunk decryption's plaintext as one slice, and its failure as the error", async () => {
    const bytes = new Uint8Array([1, 2, 3]);
    expect(await collect(decryptedWhole(Promise.resolve(bytes)))).toEqual([bytes]);
    await expect(collect(decryptedWhole(Promise.reject(new IntegrityError())))).rejects.toBeInstanceOf(
      IntegrityError,
    );
  });
});
