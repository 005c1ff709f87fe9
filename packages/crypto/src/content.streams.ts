import { assertPositiveInteger } from './bytes.util.js';
import { decryptChunk, sealChunk } from './chunk.cipher.js';
import { IntegrityError } from './crypto.errors.js';
import { CHUNK_OVERHEAD, CHUNK_SIZE } from './format.constants.js';
import { assertFileKey } from './file-key.wrap.js';
import { createChunkingTransform } from './chunking.transform.js';

export interface EncryptStreamOptions {
  /** Plaintext bytes per chunk; default {@link CHUNK_SIZE}. Other values only in tests. */
  chunkSize?: number;
  /** IV for chunk `index`; default a fresh random 12-byte IV. Only for test vectors. */
  ivSource?: (index: number) => Uint8Array;
}

export interface DecryptStreamOptions {
  /** Plaintext bytes per chunk the file was encrypted with (`encryptionInfo.chunkSize`); default {@link CHUNK_SIZE}. */
  chunkSize?: number;
}

/**
 * Encrypts a file's plaintext into the coffer-v1 stored object. Input may arrive in pieces of any
 * size; output is `iv` and `ciphertext||tag` pieces per chunk, in order (piece boundaries carry no
 * meaning). Empty input yields one encrypted empty chunk (28 bytes).
 *
 * Memory: one chunk of input (the buffer grows up to `chunkSize`) and one chunk of output. An
 * input piece spanning several chunks is encrypted in place, without copying, but then its
 * chunks' outputs may queue up until they are read.
 */
export function encryptStream(
  fileKey: CryptoKey,
  options: EncryptStreamOptions = {},
): TransformStream<Uint8Array, Uint8Array> {
  const chunkSize = checkedChunkSize(fileKey, options.chunkSize);
  const { ivSource } = options;
  return createChunkingTransform(chunkSize, async (plaintextBytes, index, isLast) => {
    const sealed = await sealChunk(fileKey, index, isLast, plaintextBytes, ivSource?.(index));
    return [sealed.ivBytes, sealed.ciphertextBytes];
  });
}

/**
 * Decrypts a coffer-v1 stored object back to plaintext, chunk by chunk. The stream errors with
 * {@link IntegrityError} ("file is corrupted or was tampered with") on any altered, reordered,
 * missing, extra or truncated chunk. Chunks before the damage may already have been emitted, and
 * truncation is only detectable at the end: treat the output as valid only once the stream closes
 * without error (e.g. delete a partially written file on error).
 */
export function decryptStream(
  fileKey: CryptoKey,
  options: DecryptStreamOptions = {},
): TransformStream<Uint8Array, Uint8Array> {
  const chunkSize = checkedChunkSize(fileKey, options.chunkSize);
  return createChunkingTransform(chunkSize + CHUNK_OVERHEAD, async (encryptedBytes, index, isLast) => {
    // A final piece shorter than IV + tag means the object was cut inside a chunk (or is empty).
    if (encryptedBytes.length < CHUNK_OVERHEAD) throw new IntegrityError();
    return [await decryptChunk(fileKey, index, isLast, encryptedBytes)];
  });
}

/** Both directions refuse a wrong key or chunk size when the stream is made, not at its first chunk. */
function checkedChunkSize(fileKey: CryptoKey, optionalChunkSize: number | undefined): number {
  assertFileKey(fileKey);
  const chunkSize = optionalChunkSize ?? CHUNK_SIZE;
  assertPositiveInteger(chunkSize, 'chunkSize');
  return chunkSize;
}
