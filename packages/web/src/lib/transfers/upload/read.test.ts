import { describe, expect, it } from 'vitest';
import { chunkSlice, partSize } from './read';
import type { UploadContext } from './upload-context';
import type { UploadJournal } from '../upload-journal';

/** A 250-byte file in chunks of 100: two whole chunks and a last one of 50. */
function contextFor(journal?: Pick<UploadJournal, 'hashing'>): UploadContext {
  return {
    file: new File([new Uint8Array(250)], 'f.bin'),
    chunkSize: 100,
    chunkCount: 3,
    ...(journal === undefined ? {} : { journal }),
  } as Partial<UploadContext> as UploadContext;
}

describe('read stage: chunkSlice', () => {
  it("names each chunk's bytes of the file, the last one shorter and flagged last", () => {
    const context = contextFor();
    expect([0, 1, 2].map((index) => chunkSlice(context, index))).toMatchObject([
      { index: 0, start: 0, end: 100, isLast: false, options: {} },
      { index: 1, start: 100, end: 200, isLast: false, options: {} },
      { index: 2, start: 200, end: 250, isLast: true, options: {} },
    ]);
  });

  it("asks for the journal's hash scheme, and reports the bytes read to the upload's progress", () => {
    const reads: [number, number][] = [];
    const work = {
      read: (index: number, bytes: number) => reads.push([index, bytes]),
      sent: () => undefined,
    };
    const hashing = { scheme: 'gmac-pieces', key: {} as CryptoKey } as const;
    const slice = chunkSlice(contextFor({ hashing }), 1, work);
    expect(slice.options.hashPlaintext).toBe(hashing);
    slice.options.onRead?.(40);
    expect(reads).toEqual([[1, 40]]);
  });

  it('partSize: the plaintext of the chunk plus its IV and tag (28 bytes)', () => {
    expect([0, 2].map((index) => partSize(contextFor(), index))).toEqual([128, 78]);
  });
});
