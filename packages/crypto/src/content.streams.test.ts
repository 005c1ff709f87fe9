import { beforeAll, describe, expect, it } from 'vitest';
import { decryptChunk } from './chunk.cipher.js';
import { decryptStream, encryptStream } from './content.streams.js';
import { chunkCount, encryptedSize, plainChunkLength } from './content-size.math.js';
import { InvalidArgumentError } from './crypto.errors.js';
import { generateFileKey } from './file-key.wrap.js';
import { patternBytes, runTransform, seededRandom, splitBytes } from './testing/stream.helpers.js';

const C = 64;
const SIZES = [0, 1, C - 1, C, C + 1, 2 * C, 2 * C + 5, 5 * C + 17];

/** Ways to cut a byte array into stream pieces. */
const FEEDS: Record<string, (bytes: Uint8Array) => Uint8Array[]> = {
  'one piece': (bytes) => (bytes.length === 0 ? [] : [bytes]),
  '1-byte pieces': (bytes) => splitBytes(bytes, () => 1),
  'random pieces': (bytes) => {
    const random = seededRandom(bytes.length + 7);
    return splitBytes(bytes, () => 1 + Math.floor(random() * 2.5 * C));
  },
  'pieces spanning chunks': (bytes) => splitBytes(bytes, () => 3 * C + 7),
  'exactly chunk-sized pieces': (bytes) => splitBytes(bytes, () => C),
  'with empty pieces': (bytes) => [new Uint8Array(0), ...splitBytes(bytes, () => 10), new Uint8Array(0)],
};

let fileKey: CryptoKey;
beforeAll(async () => {
  fileKey = await generateFileKey();
});

describe('encryptStream / decryptStream round trips (C = 64)', () => {
  for (const size of SIZES) {
    for (const [encryptFeed, feed] of Object.entries(FEEDS)) {
      it(`${size} bytes, encrypt fed as ${encryptFeed}`, async () => {
        const plaintext = patternBytes(size, size + 1);
        const encrypted = await runTransform(encryptStream(fileKey, { chunkSize: C }), feed(plaintext));
        expect(encrypted.length).toBe(encryptedSize(size, C));

        // Every decrypt feeding gives back the plaintext.
        for (const decryptFeed of Object.values(FEEDS)) {
          const decrypted = await runTransform(
            decryptStream(fileKey, { chunkSize: C }),
            decryptFeed(encrypted),
          );
          expect(decrypted).toEqual(plaintext);
        }
      });
    }
  }

  it('lays out chunk i as iv || AES-GCM(aad_i) readable by decryptChunk', async () => {
    const size = 2 * C + 5;
    const plaintext = patternBytes(size);
    const encrypted = await runTransform(encryptStream(fileKey, { chunkSize: C }), [plaintext]);
    const count = chunkCount(size, C);
    let offset = 0;
    for (let i = 0; i < count; i++) {
      const length = plainChunkLength(size, i, C) + 28;
      const chunk = encrypted.subarray(offset, offset + length);
      expect(await decryptChunk(fileKey, i, i === count - 1, chunk)).toEqual(
        plaintext.subarray(i * C, i * C + plainChunkLength(size, i, C)),
      );
      offset += length;
    }
    expect(offset).toBe(encrypted.length);
  });

  it('uses the injected IVs and, by default, fresh random ones', async () => {
    const plaintext = patternBytes(C + 1);
    const ivSource = (index: number): Uint8Array => new Uint8Array(12).fill(index + 1);
    const withIvs = await runTransform(encryptStream(fileKey, { chunkSize: C, ivSource }), [plaintext]);
    expect(withIvs.subarray(0, 12)).toEqual(new Uint8Array(12).fill(1));
    expect(withIvs.subarray(C + 28, C + 40)).toEqual(new Uint8Array(12).fill(2));
    // Same IVs, different feeding (copying vs in-place path): identical bytes.
    const again = await runTransform(
      encryptStream(fileKey, { chunkSize: C, ivSource }),
      splitBytes(plaintext, () => 1),
    );
    expect(again).toEqual(withIvs);

    const a = await runTransform(encryptStream(fileKey, { chunkSize: C }), [plaintext]);
    const b = await runTransform(encryptStream(fileKey, { chunkSize: C }), [plaintext]);
    expect(a).not.toEqual(b);
  });

  it('rejects bad options and non-byte input', async () => {
    expect(() => encryptStream(fileKey, { chunkSize: 0 })).toThrow(InvalidArgumentError);
    expect(() => decryptStream(fileKey, { chunkSize: -1 })).toThrow(InvalidArgumentError);
    expect(() => encryptStream(fileKey, { chunkSize: 1.5 })).toThrow(InvalidArgumentError);
    await expect(
      runTransform(encryptStream(fileKey, { chunkSize: C }), ['text' as unknown as Uint8Array]),
    ).rejects.toThrow(InvalidArgumentError);
    await expect(
      runTransform(encryptStream(fileKey, { chunkSize: C, ivSource: () => new Uint8Array(8) }), [
        new Uint8Array(1),
      ]),
    ).rejects.toThrow(InvalidArgumentError);
  });
});
