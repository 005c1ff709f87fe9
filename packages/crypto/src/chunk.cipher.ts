import { assertBytes, assertNonNegativeInteger, concatBytes, toBufferSource } from './bytes.util.js';
import { IntegrityError, InvalidArgumentError } from './crypto.errors.js';
import { CHUNK_OVERHEAD, FORMAT, IV_LENGTH, MAX_CHUNK_INDEX } from './format.constants.js';
import { assertFileKey } from './file-key.wrap.js';

const FORMAT_BYTES = new TextEncoder().encode(FORMAT);

/** Bytes of a chunk's additional authenticated data: "coffer-v1" (9) + index (4) + last flag (1). */
export const AAD_LENGTH = FORMAT_BYTES.length + 5;

/**
 * The AAD of chunk `index`: ASCII "coffer-v1" || uint32 big-endian index || 0x01 if last else 0x00.
 * Binding position and "last" into every tag is what makes reordering, dropping, duplicating and
 * truncating chunks detectable.
 */
export function chunkAad(index: number, isLast: boolean): Uint8Array<ArrayBuffer> {
  assertChunkIndex(index);
  const aad = new Uint8Array(AAD_LENGTH);
  aad.set(FORMAT_BYTES, 0);
  new DataView(aad.buffer).setUint32(FORMAT_BYTES.length, index, false);
  aad[AAD_LENGTH - 1] = isLast ? 1 : 0;
  return aad;
}

/** A sealed chunk as two pieces, so a stream can emit it without concatenating. */
export interface SealedChunk {
  ivBytes: Uint8Array<ArrayBuffer>;
  /** AES-GCM output: ciphertext followed by the 16-byte tag. */
  ciphertextBytes: Uint8Array<ArrayBuffer>;
}

/**
 * Encrypts chunk `index` of a file: returns `iv || AES-256-GCM(fileKey, iv, aad, plaintext)`, which
 * is `plaintext.length + 28` bytes. `isLast` must be true exactly for the file's final chunk (the
 * only chunk of an empty file is empty and last). Chunk i of a file is multipart part i + 1.
 *
 * `ivBytes` is for test vectors only: by default a fresh random 12-byte IV is drawn, and an IV must
 * never be reused with the same key.
 */
export async function encryptChunk(
  fileKey: CryptoKey,
  index: number,
  isLast: boolean,
  plaintextBytes: Uint8Array,
  ivBytes?: Uint8Array,
): Promise<Uint8Array<ArrayBuffer>> {
  const sealed = await sealChunk(fileKey, index, isLast, plaintextBytes, ivBytes);
  return concatBytes([sealed.ivBytes, sealed.ciphertextBytes]);
}

/**
 * {@link encryptChunk} without the final concatenation.
 *
 * Like {@link decryptChunk}, it starts the WebCrypto operation before returning, and WebCrypto
 * copies its input when called: a caller short of memory may release (detach) the plaintext's
 * buffer as soon as this returns its promise. Keep it so (no `await` before the WebCrypto call);
 * the test "lets the caller release the input once the call returns" guards it.
 */
export async function sealChunk(
  fileKey: CryptoKey,
  index: number,
  isLast: boolean,
  plaintextBytes: Uint8Array,
  ivBytes: Uint8Array = crypto.getRandomValues(new Uint8Array(IV_LENGTH)),
): Promise<SealedChunk> {
  assertFileKey(fileKey);
  assertBytes(plaintextBytes, 'plaintext');
  assertBytes(ivBytes, 'iv');
  if (ivBytes.length !== IV_LENGTH) throw new InvalidArgumentError(`iv must be ${IV_LENGTH} bytes`);
  // Copied, so a caller reusing its IV buffer cannot change the IV we emit.
  const iv = new Uint8Array(ivBytes);
  const ciphertext = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: chunkAad(index, isLast) },
    fileKey,
    toBufferSource(plaintextBytes),
  );
  return { ivBytes: iv, ciphertextBytes: new Uint8Array(ciphertext) };
}

/**
 * Decrypts chunk `index` (`iv || ciphertext || tag`) and returns its plaintext. The input may be
 * released once this returns its promise (see {@link sealChunk}).
 * @throws {IntegrityError} the chunk is shorter than 28 bytes, or its tag does not verify for this
 * key, index and last flag.
 */
export async function decryptChunk(
  fileKey: CryptoKey,
  index: number,
  isLast: boolean,
  encryptedBytes: Uint8Array,
): Promise<Uint8Array<ArrayBuffer>> {
  assertFileKey(fileKey);
  assertBytes(encryptedBytes, 'encrypted chunk');
  const aad = chunkAad(index, isLast);
  if (encryptedBytes.length < CHUNK_OVERHEAD) throw new IntegrityError();
  const source = toBufferSource(encryptedBytes);
  try {
    const plaintext = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: source.subarray(0, IV_LENGTH), additionalData: aad },
      fileKey,
      source.subarray(IV_LENGTH),
    );
    return new Uint8Array(plaintext);
  } catch (cause) {
    // OperationError is the tag check failing; anything else (a key without the decrypt usage…) is a bug.
    if (cause instanceof Error && cause.name === 'OperationError') throw new IntegrityError({ cause });
    throw cause;
  }
}

function assertChunkIndex(index: number): void {
  assertNonNegativeInteger(index, 'chunk index');
  if (index > MAX_CHUNK_INDEX) throw new InvalidArgumentError('chunk index does not fit in 32 bits');
}
