import { beforeAll, describe, expect, it } from 'vitest';
import { concatBytes } from './bytes.util.js';
import { encryptChunk } from './chunk.cipher.js';
import { decryptStream, encryptStream } from './content.streams.js';
import { IntegrityError } from './crypto.errors.js';
import { generateFileKey } from './file-key.wrap.js';
import { patternBytes, runTransform } from './testing/stream.helpers.js';

const C = 64;
const FULL = C + 28;
const SIZE = 2 * C + 5; // chunks of 64, 64 and 5 plaintext bytes

let fileKey: CryptoKey;
let encrypted: Uint8Array;
/** The three encrypted chunks of `encrypted`. */
let chunks: Uint8Array[];

beforeAll(async () => {
  fileKey = await generateFileKey();
  encrypted = await runTransform(encryptStream(fileKey, { chunkSize: C }), [patternBytes(SIZE)]);
  chunks = [encrypted.subarray(0, FULL), encrypted.subarray(FULL, 2 * FULL), encrypted.subarray(2 * FULL)];
});

function chunkAt(index: number): Uint8Array {
  const chunk = chunks[index];
  if (chunk === undefined) throw new Error(`no chunk ${index}`);
  return chunk;
}

async function expectIntegrityError(bytes: Uint8Array, key: CryptoKey = fileKey): Promise<void> {
  // Fed one byte at a time too, so that the outcome does not depend on how the input is cut.
  for (const pieces of [[bytes], Array.from(bytes, (byte) => new Uint8Array([byte]))]) {
    const error = await runTransform(decryptStream(key, { chunkSize: C }), pieces).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IntegrityError);
    expect((error as IntegrityError).message).toBe('file is corrupted or was tampered with');
    expect((error as IntegrityError).code).toBe('INTEGRITY');
  }
}

function flipBit(bytes: Uint8Array, offset: number): Uint8Array {
  const copy = new Uint8Array(bytes);
  copy[offset] = (copy[offset] ?? 0) ^ 0x01;
  return copy;
}

describe('decryptStream rejects tampering with IntegrityError', () => {
  it('accepts the untouched object (control)', async () => {
    expect(await runTransform(decryptStream(fileKey, { chunkSize: C }), [encrypted])).toEqual(
      patternBytes(SIZE),
    );
  });

  it.each([
    ['the first IV', 0],
    ['first-chunk ciphertext', 30],
    ['a first-chunk tag', FULL - 1],
    ['second-chunk ciphertext', FULL + 40],
    ['the last IV', 2 * FULL],
    ['the last tag', 2 * FULL + 5 + 27],
  ])('a flipped bit in %s', async (_, offset) => {
    await expectIntegrityError(flipBit(encrypted, offset));
  });

  it('two chunks swapped', async () => {
    await expectIntegrityError(concatBytes([chunkAt(1), chunkAt(0), chunkAt(2)]));
  });

  it('a middle chunk dropped', async () => {
    await expectIntegrityError(concatBytes([chunkAt(0), chunkAt(2)]));
  });

  it('the first chunk dropped', async () => {
    await expectIntegrityError(concatBytes([chunkAt(1), chunkAt(2)]));
  });

  it('truncation at a chunk boundary (last chunk dropped)', async () => {
    await expectIntegrityError(concatBytes([chunkAt(0), chunkAt(1)]));
    await expectIntegrityError(chunkAt(0));
  });

  it('truncation inside a chunk', async () => {
    await expectIntegrityError(encrypted.subarray(0, encrypted.length - 1));
    await expectIntegrityError(encrypted.subarray(0, FULL + 10));
    await expectIntegrityError(encrypted.subarray(0, 2 * FULL + 27)); // final piece shorter than iv + tag
  });

  it('an empty object', async () => {
    await expectIntegrityError(new Uint8Array(0));
  });

  it('the last chunk appended again', async () => {
    await expectIntegrityError(concatBytes([encrypted, chunkAt(2)]));
  });

  it('a new valid-looking chunk appended', async () => {
    const extra = await encryptChunk(fileKey, 3, true, new Uint8Array([1, 2, 3]));
    await expectIntegrityError(concatBytes([encrypted, extra]));
  });

  it('a trailing chunk re-encrypted as not-last, then another last chunk', async () => {
    // Even a writer holding the key cannot "extend" a file whose last chunk is already sealed.
    const extra = await encryptChunk(fileKey, 3, true, new Uint8Array(0));
    await expectIntegrityError(concatBytes([chunkAt(0), chunkAt(1), chunkAt(2), extra]));
  });

  it('a chunk taken from another file (same index, other key)', async () => {
    const otherKey = await generateFileKey();
    const other = await runTransform(encryptStream(otherKey, { chunkSize: C }), [patternBytes(SIZE)]);
    const foreign = other.subarray(FULL, 2 * FULL);
    await expectIntegrityError(concatBytes([chunkAt(0), foreign, chunkAt(2)]));
  });

  it('the whole object under another key', async () => {
    await expectIntegrityError(encrypted, await generateFileKey());
  });

  it('decrypting with another chunk size', async () => {
    const error = await runTransform(decryptStream(fileKey, { chunkSize: C + 1 }), [encrypted]).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(IntegrityError);
  });
});
