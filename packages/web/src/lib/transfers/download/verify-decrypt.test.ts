import { encryptChunk, generateFileKey, IntegrityError } from '@coffer/crypto';
import { describe, expect, it } from 'vitest';
import { openChunkInSlices } from './decrypt';

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
