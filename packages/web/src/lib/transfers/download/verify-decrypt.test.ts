import { encryptChunk, generateFileKey, IntegrityError } from '@coffer/crypto';
import { describe, expect, it } from 'vitest';
import { decryptVerified, openChunkInSlices, verifyChunk } from '../testing/open-stored-chunk';
import { decryptedWhole, decryptStored, readBack } from './decrypt';
import { ReceivedChunkVerifier, storedCiphertext } from './verify';

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

/** `bytes` cut into pieces of the given sizes, repeated (the last piece takes what is left). */
function pieces(bytes: Uint8Array, sizes: readonly number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let offset = 0, i = 0; offset < bytes.length; i++) {
    const end = Math.min(bytes.length, offset + (sizes[i % sizes.length] ?? 1));
    out.push(bytes.subarray(offset, end));
    offset = end;
  }
  return out;
}

/** Appends each piece through ONE reused buffer (as the fetch stage's reader does), then finishes. */
async function verifyReceived(verifier: ReceivedChunkVerifier, chunk: Uint8Array, sizes: readonly number[]) {
  const reused = new Uint8Array(Math.max(...sizes));
  for (const piece of pieces(chunk, sizes)) {
    reused.set(piece);
    await verifier.append(reused.subarray(0, piece.length));
    reused.fill(0xee);
  }
  return verifier.finish();
}

describe('verify stage, as the chunk arrives: ReceivedChunkVerifier', () => {
  it.each([[[1]], [[5, 7]], [[13]], [[100, 3, 64]], [[4096]]])(
    'verifies pieces of sizes %j across the IV and the tag, and the opener then decrypts other slices',
    async (sizes) => {
      const { key, chunk } = await sealed();
      const opener = await verifyReceived(
        new ReceivedChunkVerifier(key, 2, false, chunk.length, 32),
        chunk,
        sizes,
      );
      const slices = await collect(decryptStored(opener, storedCiphertext(new Blob([chunk])), 96, 48));
      expect(slices.map((slice) => slice.length).slice(0, 3)).toEqual([48, 48, 48]);
      expect(new Uint8Array(await new Blob(slices).arrayBuffer())).toEqual(plain);
    },
  );

  it.each([
    ['a ciphertext byte', 500],
    ['an IV byte', 3],
    ['a tag byte', 12 + 1000 + 7],
  ])('refuses the chunk when %s changed on the way', async (_what, at) => {
    const { key, chunk } = await sealed();
    const tampered = chunk.slice();
    tampered[at] = (tampered[at] ?? 0) ^ 1;
    await expect(
      verifyReceived(new ReceivedChunkVerifier(key, 2, false, chunk.length, 32), tampered, [7, 64]),
    ).rejects.toBeInstanceOf(IntegrityError);
  });

  it('refuses a chunk that stops short, runs past its length, or sits elsewhere in the file', async () => {
    const { key, chunk } = await sealed();
    const short = new ReceivedChunkVerifier(key, 2, false, chunk.length);
    await short.append(chunk.subarray(0, chunk.length - 1));
    await expect(short.finish()).rejects.toBeInstanceOf(IntegrityError);
    const long = new ReceivedChunkVerifier(key, 2, false, chunk.length);
    await expect(long.append(new Uint8Array(chunk.length + 1))).rejects.toBeInstanceOf(IntegrityError);
    await expect(
      verifyReceived(new ReceivedChunkVerifier(key, 3, false, chunk.length), chunk, [64]),
    ).rejects.toBeInstanceOf(IntegrityError);
    expect(() => new ReceivedChunkVerifier(key, 2, false, 27)).toThrow(IntegrityError);
  });

  it('hashes pieces appended before the one before them settled, in order', async () => {
    const { key, chunk } = await sealed();
    const verifier = new ReceivedChunkVerifier(key, 2, false, chunk.length, 32);
    await Promise.all(pieces(chunk, [100, 7, 300]).map((piece) => verifier.append(piece)));
    const opener = await verifier.finish();
    const slices = await collect(decryptStored(opener, storedCiphertext(new Blob([chunk]))));
    expect(new Uint8Array(await new Blob(slices).arrayBuffer())).toEqual(plain);
  });

  it('verifies an empty last chunk (IV and tag only)', async () => {
    const key = await generateFileKey();
    const chunk = await encryptChunk(key, 0, true, new Uint8Array(0));
    const opener = await verifyReceived(new ReceivedChunkVerifier(key, 0, true, chunk.length), chunk, [5]);
    const slices = await collect(decryptStored(opener, storedCiphertext(new Blob([chunk]))));
    expect(slices.reduce((sum, slice) => sum + slice.length, 0)).toBe(0);
  });
});

describe('decrypt stage: reading the stored chunk back', () => {
  const bytes = new Uint8Array(1000).map((_, i) => i & 0xff);

  it('reads slice by slice into one buffer of the slice size (readSliceInto)', async () => {
    const sizes: number[] = [];
    const copies: Uint8Array<ArrayBuffer>[] = [];
    const buffers = new Set<number>();
    for await (const slice of readBack(new Blob([bytes]), 256)) {
      sizes.push(slice.length);
      copies.push(slice.slice());
      buffers.add(slice.buffer.byteLength);
    }
    expect(sizes).toEqual([256, 256, 256, 232]);
    expect([...buffers]).toEqual([256]);
    expect(new Uint8Array(await new Blob(copies).arrayBuffer())).toEqual(bytes);
  });

  it('reads an empty Blob as one empty slice', async () => {
    const sizes: number[] = [];
    for await (const slice of readBack(new Blob([]), 256)) sizes.push(slice.length);
    expect(sizes).toEqual([0]);
  });
});
