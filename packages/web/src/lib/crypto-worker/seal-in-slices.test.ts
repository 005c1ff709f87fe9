import { decryptChunk, generateFileKey, IV_LENGTH, sha256PieceList } from '@coffer/crypto';
import { describe, expect, it } from 'vitest';
import { sealInSlices } from './seal-in-slices';

function pattern(length: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array(length).map((_, i) => (i * 31 + 7) & 0xff);
}

async function seal(plain: Uint8Array<ArrayBuffer>, sliceBytes: number, hash: boolean) {
  const key = await generateFileKey();
  const appended: Uint8Array<ArrayBuffer>[] = [];
  const reads: number[] = [];
  const sealed = await sealInSlices(
    {
      key,
      index: 3,
      isLast: true,
      source: new Blob([plain]),
      readBuffer: new ArrayBuffer(sliceBytes),
      sliceBytes,
      ...(hash ? { hashScheme: 'sha256-pieces' as const } : {}),
      onRead: (read) => reads.push(read),
    },
    { append: (bytes) => appended.push(bytes.slice()) },
  );
  const part = new Uint8Array(await new Blob(appended).arrayBuffer());
  return { key, part, appended, reads, sealed };
}

describe('sealInSlices', () => {
  it('writes the IV, then each slice sealed: the part one-shot AES-GCM would make, opened whole', async () => {
    const plain = pattern(1000);
    const { key, part, appended, reads } = await seal(plain, 64, false);
    // The IV, 16 slices (15 × 64 bytes, then 40 and the tag): never more than a slice at once.
    expect(appended[0]).toHaveLength(IV_LENGTH);
    expect(appended).toHaveLength(1 + 16);
    expect(Math.max(...appended.map((bytes) => bytes.length))).toBe(64);
    expect(part.length).toBe(1000 + 28);
    expect(await decryptChunk(key, 3, true, part)).toEqual(plain);
    await expect(decryptChunk(key, 2, true, part)).rejects.toThrow();
    expect(reads.at(-1)).toBe(1000);
  });

  it('computes the resume hash over the same slices: sha256PieceList of the chunk', async () => {
    const plain = pattern(256 * 1024 * 2 + 12_345);
    const { key, part, sealed } = await seal(plain, 256 * 1024, true);
    expect(sealed.hash).toEqual(await sha256PieceList(plain));
    expect(await decryptChunk(key, 3, true, part)).toEqual(plain);
  });

  it('seals an empty chunk as its IV and tag, hashed like sha256PieceList', async () => {
    const plain = new Uint8Array(0);
    const { key, part, sealed } = await seal(plain, 256 * 1024, true);
    expect(part.length).toBe(28);
    expect(await decryptChunk(key, 3, true, part)).toEqual(plain);
    expect(sealed.hash).toEqual(await sha256PieceList(plain));
  });
});
