import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BlobRange, BlobStore } from './blob-store.js';
import {
  BlobNotFoundError,
  BlobRangeNotSatisfiableError,
  BlobSizeMismatchError,
  InvalidBlobKeyError,
  InvalidPartError,
  MultipartUploadNotFoundError,
} from './blob-store.js';

/**
 * The behaviour every {@link BlobStore} must have. Each implementation's test file calls this
 * with a getter for a store built in its `beforeAll`; tests use unique keys, so they can share it.
 */
export function describeBlobStoreContract(name: string, getStore: () => BlobStore): void {
  describe(`BlobStore contract: ${name}`, () => {
    let counter = 0;
    const run = randomBytes(4).toString('hex');
    const newKey = (label: string) => `contract/${run}/${label}-${++counter}`;

    describe('put and get', () => {
      it('round-trips a small body', async () => {
        const store = getStore();
        const key = newKey('small');
        const data = randomData(11);
        await store.put(key, pieces(data, [3, 8]), { size: data.length });
        const result = await store.get(key);
        expect(result.size).toBe(11);
        expect(result.totalSize).toBe(11);
        expect(await readAll(result.body)).toEqual(data);
        expect(await store.stat(key)).toEqual({ size: 11 });
      });

      it('round-trips an empty body', async () => {
        const store = getStore();
        const key = newKey('empty');
        await store.put(key, pieces(new Uint8Array(0), []), { size: 0 });
        const result = await store.get(key);
        expect(result).toMatchObject({ size: 0, totalSize: 0 });
        expect(await readAll(result.body)).toEqual(new Uint8Array(0));
        expect(await store.stat(key)).toEqual({ size: 0 });
      });

      it('round-trips a multi-MiB body fed in odd-sized pieces', async () => {
        const store = getStore();
        const key = newKey('large');
        const data = randomData(3 * 1024 * 1024 + 17);
        await store.put(key, pieces(data, [1, 13, 4093, 65_537, 300_001, 0, 7]), { size: data.length });
        const result = await store.get(key);
        expect(result.size).toBe(data.length);
        expect(equalBytes(await readAll(result.body), data)).toBe(true);
      });

      it('replaces an existing object', async () => {
        const store = getStore();
        const key = newKey('replace');
        await putBytes(store, key, randomData(100));
        const second = randomData(42);
        await putBytes(store, key, second);
        expect(await readAll((await store.get(key)).body)).toEqual(second);
      });

      it('serves concurrent puts to different keys', async () => {
        const store = getStore();
        const items = Array.from({ length: 8 }, (_, i) => ({
          key: newKey(`parallel${i}`),
          data: randomData(50_000 + i),
        }));
        await Promise.all(
          items.map(({ key, data }) => store.put(key, pieces(data, [4096]), { size: data.length })),
        );
        for (const { key, data } of items) expect(await readAll((await store.get(key)).body)).toEqual(data);
      });

      it('lets a reader stop early without breaking the store', async () => {
        const store = getStore();
        const key = newKey('early-stop');
        const data = randomData(2 * 1024 * 1024);
        await putBytes(store, key, data);
        for (let i = 0; i < 3; i++) {
          const { body } = await store.get(key);
          for await (const chunk of body) {
            expect(chunk.byteLength).toBeGreaterThan(0);
            break;
          }
        }
        expect(equalBytes(await readAll((await store.get(key)).body), data)).toBe(true);
      });

      it('throws BlobNotFoundError for a missing key', async () => {
        await expect(getStore().get(newKey('missing'))).rejects.toBeInstanceOf(BlobNotFoundError);
        expect(await getStore().stat(newKey('missing'))).toBeNull();
      });
    });

    describe('exact size', () => {
      it.each([
        ['too short', 1000, 999],
        ['too long', 1000, 1001],
        ['empty declared, one byte sent', 0, 1],
      ])('rejects a put whose body is %s and stores nothing', async (_label, declared, sent) => {
        const store = getStore();
        const key = newKey('size');
        const error = await store.put(key, pieces(randomData(sent), [300]), { size: declared }).catch(caught);
        expect(error).toBeInstanceOf(BlobSizeMismatchError);
        expect(await store.stat(key)).toBeNull();
        await expect(store.get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
      });

      it('keeps the previous object when a replacing put has the wrong size', async () => {
        const store = getStore();
        const key = newKey('size-keep');
        const original = randomData(500);
        await putBytes(store, key, original);
        const error = await store.put(key, pieces(randomData(600), [100]), { size: 500 }).catch(caught);
        expect(error).toBeInstanceOf(BlobSizeMismatchError);
        expect(await readAll((await store.get(key)).body)).toEqual(original);
      });

      it('passes on the error of a body that fails midway and stores nothing', async () => {
        const store = getStore();
        const key = newKey('crash');
        const failure = new Error('client went away');
        const error = await store
          .put(key, failingBody(randomData(200_000), 150_000, failure), { size: 200_000 })
          .catch(caught);
        expect(error).toBe(failure);
        expect(await store.stat(key)).toBeNull();
      });

      it.each([
        ['too short', 999],
        ['too long', 1001],
      ])('rejects a part whose body is %s; the upload stays usable', async (_label, sent) => {
        const store = getStore();
        const key = newKey('part-size');
        const { uploadId } = await store.createMultipart(key);
        const error = await store
          .uploadPart(key, uploadId, 1, pieces(randomData(sent), [256]), { size: 1000 })
          .catch(caught);
        expect(error).toBeInstanceOf(BlobSizeMismatchError);
        const data = randomData(1000);
        const { etag } = await store.uploadPart(key, uploadId, 1, pieces(data, [256]), { size: 1000 });
        await store.completeMultipart(key, uploadId, [{ partNumber: 1, etag }]);
        expect(await readAll((await store.get(key)).body)).toEqual(data);
      });
    });

    describe('ranges', () => {
      it('serves first, middle and last bytes; clamps an end past the object', async () => {
        const store = getStore();
        const key = newKey('range');
        const data = randomData(10_000);
        await putBytes(store, key, data);
        await expectRange(store, key, data, { start: 0, end: 0 });
        await expectRange(store, key, data, { start: 1234, end: 5678 });
        await expectRange(store, key, data, { start: 9999, end: 9999 });
        await expectRange(store, key, data, { start: 0, end: 9999 });
        const clamped = await store.get(key, { start: 9000, end: 20_000 });
        expect(clamped).toMatchObject({ size: 1000, totalSize: 10_000 });
        expect(await readAll(clamped.body)).toEqual(data.subarray(9000));
      });

      it.each([
        ['starts at the size', { start: 10_000, end: 10_000 }],
        ['starts past the size', { start: 20_000, end: 30_000 }],
        ['is reversed', { start: 10, end: 9 }],
        ['is negative', { start: -1, end: 5 }],
      ])('rejects a range that %s', async (_label, range) => {
        const store = getStore();
        const key = newKey('bad-range');
        await putBytes(store, key, randomData(10_000));
        await expect(store.get(key, range)).rejects.toBeInstanceOf(BlobRangeNotSatisfiableError);
      });

      it('rejects any range of an empty object', async () => {
        const store = getStore();
        const key = newKey('empty-range');
        await putBytes(store, key, new Uint8Array(0));
        await expect(store.get(key, { start: 0, end: 0 })).rejects.toBeInstanceOf(
          BlobRangeNotSatisfiableError,
        );
      });
    });

    describe('multipart', () => {
      // Small parts: the fs store has no minimum and s3rver does not enforce S3's 5 MiB one.
      const partSizes = [100_003, 100_003, 5_001];

      it('assembles parts in order, visible only after completion; ranges cross part boundaries', async () => {
        const store = getStore();
        const key = newKey('multi');
        const datas = partSizes.map((size) => randomData(size));
        const whole = concat(datas);
        const { uploadId } = await store.createMultipart(key);
        // Uploaded out of order and concurrently, as a browser with several connections would.
        const etags = await Promise.all(
          [2, 0, 1].map(async (i) => {
            const data = datas[i] ?? new Uint8Array(0);
            return {
              i,
              ...(await store.uploadPart(key, uploadId, i + 1, pieces(data, [7777]), { size: data.length })),
            };
          }),
        );
        expect(await store.stat(key)).toBeNull();
        await expect(store.get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
        const parts = etags.sort((a, b) => a.i - b.i).map(({ i, etag }) => ({ partNumber: i + 1, etag }));
        await store.completeMultipart(key, uploadId, parts);

        expect(await store.stat(key)).toEqual({ size: whole.length });
        expect(equalBytes(await readAll((await store.get(key)).body), whole)).toBe(true);
        const [p1 = 0, p2 = 0] = partSizes;
        for (const range of [
          { start: 0, end: 0 },
          { start: p1 - 2, end: p1 + 1 },
          { start: p1, end: p1 },
          { start: p1 - 1, end: p1 - 1 },
          { start: 10, end: p1 + p2 + 10 },
          { start: p1 + 5, end: p1 + 500 },
          { start: whole.length - 1, end: whole.length - 1 },
        ]) {
          await expectRange(store, key, whole, range);
        }
        await expect(store.get(key, { start: whole.length, end: whole.length })).rejects.toBeInstanceOf(
          BlobRangeNotSatisfiableError,
        );
      });

      it('replaces a re-sent part; the old etag is no longer accepted', async () => {
        const store = getStore();
        const key = newKey('resend');
        const { uploadId } = await store.createMultipart(key);
        const first = randomData(1000);
        const second = randomData(1000);
        const p1 = await store.uploadPart(key, uploadId, 1, pieces(first, [100]), { size: 1000 });
        const p1b = await store.uploadPart(key, uploadId, 1, pieces(second, [100]), { size: 1000 });
        const tail = randomData(10);
        const p2 = await store.uploadPart(key, uploadId, 2, pieces(tail, [10]), { size: 10 });
        const stale = [
          { partNumber: 1, etag: p1.etag },
          { partNumber: 2, etag: p2.etag },
        ];
        await expect(store.completeMultipart(key, uploadId, stale)).rejects.toBeInstanceOf(InvalidPartError);
        expect(await store.stat(key)).toBeNull();
        const fresh = [
          { partNumber: 1, etag: p1b.etag },
          { partNumber: 2, etag: p2.etag },
        ];
        await store.completeMultipart(key, uploadId, fresh);
        expect(await readAll((await store.get(key)).body)).toEqual(concat([second, tail]));
      });

      it('refuses a wrong etag, a missing part or a bad order, and publishes nothing', async () => {
        const store = getStore();
        const key = newKey('bad-parts');
        const { uploadId } = await store.createMultipart(key);
        const a = randomData(300);
        const b = randomData(200);
        const p1 = await store.uploadPart(key, uploadId, 1, pieces(a, [300]), { size: 300 });
        const p2 = await store.uploadPart(key, uploadId, 2, pieces(b, [200]), { size: 200 });
        const wrongEtag = p1.etag.replace(/[0-9a-f](?=[^0-9a-f]*$)/, (c) => (c === '0' ? '1' : '0'));
        for (const parts of [
          [
            { partNumber: 1, etag: wrongEtag },
            { partNumber: 2, etag: p2.etag },
          ],
          [
            { partNumber: 1, etag: p1.etag },
            { partNumber: 2, etag: p2.etag },
            { partNumber: 3, etag: p2.etag },
          ],
          [
            { partNumber: 2, etag: p2.etag },
            { partNumber: 1, etag: p1.etag },
          ],
          [],
        ]) {
          await expect(store.completeMultipart(key, uploadId, parts)).rejects.toBeInstanceOf(
            InvalidPartError,
          );
          expect(await store.stat(key)).toBeNull();
        }
        // The upload is still open, as in S3, and completes with the right list.
        await store.completeMultipart(key, uploadId, [
          { partNumber: 1, etag: p1.etag },
          { partNumber: 2, etag: p2.etag },
        ]);
        expect(await readAll((await store.get(key)).body)).toEqual(concat([a, b]));
      });

      it('keeps the previous object visible until the replacing upload completes', async () => {
        const store = getStore();
        const key = newKey('multi-replace');
        const original = randomData(64);
        await putBytes(store, key, original);
        const { uploadId } = await store.createMultipart(key);
        const data = randomData(5000);
        const { etag } = await store.uploadPart(key, uploadId, 1, pieces(data, [999]), { size: data.length });
        expect(await readAll((await store.get(key)).body)).toEqual(original);
        await store.completeMultipart(key, uploadId, [{ partNumber: 1, etag }]);
        expect(await readAll((await store.get(key)).body)).toEqual(data);
      });

      it('aborts: idempotent, then parts and completion fail and nothing is visible', async () => {
        const store = getStore();
        const key = newKey('abort');
        const { uploadId } = await store.createMultipart(key);
        const { etag } = await store.uploadPart(key, uploadId, 1, pieces(randomData(100), [100]), {
          size: 100,
        });
        await store.abortMultipart(key, uploadId);
        await store.abortMultipart(key, uploadId);
        await expect(
          store.completeMultipart(key, uploadId, [{ partNumber: 1, etag }]),
        ).rejects.toBeInstanceOf(MultipartUploadNotFoundError);
        await expect(
          store.uploadPart(key, uploadId, 2, pieces(randomData(100), [100]), { size: 100 }),
        ).rejects.toBeInstanceOf(MultipartUploadNotFoundError);
        expect(await store.stat(key)).toBeNull();
      });

      it('knows no upload it did not create', async () => {
        const store = getStore();
        const key = newKey('unknown-upload');
        const bogus = '0123456789abcdef0123456789abcdef';
        await expect(
          store.uploadPart(key, bogus, 1, pieces(randomData(10), [10]), { size: 10 }),
        ).rejects.toBeInstanceOf(MultipartUploadNotFoundError);
        await expect(
          store.completeMultipart(key, bogus, [{ partNumber: 1, etag: 'x' }]),
        ).rejects.toBeInstanceOf(MultipartUploadNotFoundError);
        await store.abortMultipart(key, bogus);
        expect(await store.stat(key)).toBeNull();
      });

      it('rejects part numbers outside 1..10000', async () => {
        const store = getStore();
        const key = newKey('part-number');
        const { uploadId } = await store.createMultipart(key);
        for (const partNumber of [0, 10_001, 1.5]) {
          await expect(
            store.uploadPart(key, uploadId, partNumber, pieces(randomData(1), [1]), { size: 1 }),
          ).rejects.toBeInstanceOf(InvalidPartError);
        }
        await store.abortMultipart(key, uploadId);
      });
    });

    describe('stat and delete', () => {
      it('deletes idempotently', async () => {
        const store = getStore();
        const key = newKey('delete');
        await store.delete(key);
        await putBytes(store, key, randomData(10));
        await store.delete(key);
        await store.delete(key);
        expect(await store.stat(key)).toBeNull();
        await expect(store.get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
        // The key is free for a new object.
        await putBytes(store, key, randomData(3));
        expect(await store.stat(key)).toEqual({ size: 3 });
      });

      it('deletes a multipart object', async () => {
        const store = getStore();
        const key = newKey('delete-multi');
        const { uploadId } = await store.createMultipart(key);
        const { etag } = await store.uploadPart(key, uploadId, 1, pieces(randomData(10), [10]), { size: 10 });
        await store.completeMultipart(key, uploadId, [{ partNumber: 1, etag }]);
        await store.delete(key);
        expect(await store.stat(key)).toBeNull();
      });
    });

    describe('keys', () => {
      it.each(['../x', '/abs', '', 'a/../b', 'a//b', 'a/', 'a.b', 'a b', 'ä', 'x'.repeat(600), 'a\\b', '.'])(
        'rejects %j everywhere',
        async (key) => {
          const store = getStore();
          const data = () => pieces(randomData(1), [1]);
          await expect(store.put(key, data(), { size: 1 })).rejects.toBeInstanceOf(InvalidBlobKeyError);
          await expect(store.get(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
          await expect(store.stat(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
          await expect(store.delete(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
          await expect(store.createMultipart(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
          await expect(store.uploadPart(key, 'u', 1, data(), { size: 1 })).rejects.toBeInstanceOf(
            InvalidBlobKeyError,
          );
          await expect(store.abortMultipart(key, 'u')).rejects.toBeInstanceOf(InvalidBlobKeyError);
        },
      );

      it('accepts path-like keys, including a key that is a prefix of another', async () => {
        const store = getStore();
        const base = newKey('nested');
        await putBytes(store, base, randomData(1));
        await putBytes(store, `${base}/child_A-9`, randomData(2));
        expect(await store.stat(base)).toEqual({ size: 1 });
        expect(await store.stat(`${base}/child_A-9`)).toEqual({ size: 2 });
      });
    });
  });
}

/** Yields `data` in pieces of the given sizes, cycling through them (0 yields an empty piece). */
export async function* pieces(data: Uint8Array, sizes: number[]): AsyncGenerator<Uint8Array> {
  let offset = 0;
  for (let i = 0; offset < data.length; i++) {
    const size = sizes[i % sizes.length] ?? data.length;
    // Copies, so a store cannot rely on chunks sharing one buffer.
    yield data.slice(offset, offset + size);
    offset += size;
    await Promise.resolve();
  }
}

/** Yields `data` up to `failAt` bytes, then throws `error`: a client that drops mid-upload. */
export async function* failingBody(
  data: Uint8Array,
  failAt: number,
  error: Error,
): AsyncGenerator<Uint8Array> {
  yield* pieces(data.subarray(0, failAt), [16_384]);
  await new Promise((resolve) => setTimeout(resolve, 20));
  throw error;
}

export async function readAll(body: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return concat(chunks);
}

export function caught(error: unknown): unknown {
  return error;
}

async function putBytes(store: BlobStore, key: string, data: Uint8Array): Promise<void> {
  await store.put(key, pieces(data, [65_536]), { size: data.length });
}

async function expectRange(
  store: BlobStore,
  key: string,
  whole: Uint8Array,
  range: BlobRange,
): Promise<void> {
  const result = await store.get(key, range);
  const expected = whole.subarray(range.start, range.end + 1);
  expect(result, JSON.stringify(range)).toMatchObject({ size: expected.length, totalSize: whole.length });
  expect(equalBytes(await readAll(result.body), expected), JSON.stringify(range)).toBe(true);
}

function randomData(size: number): Uint8Array {
  return new Uint8Array(randomBytes(size));
}

function concat(chunks: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(chunks));
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}
