import { describe, expect, it } from 'vitest';
import { BlobReadError, BlobSizeMismatchError } from './blob-store.js';
import { exactSize, sliceBytes } from './byte-streams.js';

async function* chunks(...sizes: number[]): AsyncGenerator<Uint8Array> {
  let value = 0;
  for (const size of sizes) {
    yield Uint8Array.from({ length: size }, () => value++ % 256);
    await Promise.resolve();
  }
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<number[]> {
  const bytes: number[] = [];
  for await (const chunk of source) bytes.push(...chunk);
  return bytes;
}

describe('exactSize', () => {
  it('passes through a body of the declared size, dropping empty chunks', async () => {
    const seen: number[] = [];
    for await (const chunk of exactSize(chunks(2, 0, 3), 5)) seen.push(chunk.byteLength);
    expect(seen).toEqual([2, 3]);
  });

  it('fails before passing on the chunk that goes over the size', async () => {
    const passed: number[] = [];
    const run = async () => {
      for await (const chunk of exactSize(chunks(4, 4), 6)) passed.push(chunk.byteLength);
    };
    await expect(run()).rejects.toBeInstanceOf(BlobSizeMismatchError);
    expect(passed).toEqual([4]);
  });

  it('fails at the end of a short body', async () => {
    await expect(collect(exactSize(chunks(4), 5))).rejects.toMatchObject({ expected: 5, actual: 4 });
  });
});

describe('sliceBytes', () => {
  it('skips and takes across chunk boundaries', async () => {
    expect(await collect(sliceBytes(chunks(3, 3, 3), 2, 5))).toEqual([2, 3, 4, 5, 6]);
    expect(await collect(sliceBytes(chunks(3, 3, 3), 3, 3))).toEqual([3, 4, 5]);
    expect(await collect(sliceBytes(chunks(3), 0, 0))).toEqual([]);
  });

  it('stops reading the source once it has enough', async () => {
    let pulled = 0;
    async function* counted() {
      for await (const chunk of chunks(2, 2, 2, 2)) {
        pulled++;
        yield chunk;
      }
    }
    await collect(sliceBytes(counted(), 0, 3));
    expect(pulled).toBe(2);
  });

  it('fails if the source ends early', async () => {
    await expect(collect(sliceBytes(chunks(3), 1, 5))).rejects.toBeInstanceOf(BlobReadError);
  });
});
