import { CHUNK_SIZE, type EncryptionInfo } from '@coffer/contracts';
import {
  buildOwnerEncryptionInfo,
  chunkCount,
  encryptChunk,
  generateFileKey,
  wrapFileKey,
} from '@coffer/crypto';
import { concat } from './fake-coffer-server';

/** Encrypts `content` in the coffer-v1 layout with a fresh file key wrapped to `publicKey`. */
export async function encryptForStorage(
  content: Uint8Array,
  publicKey: CryptoKey,
  chunkSize: number = CHUNK_SIZE,
): Promise<{ ciphertext: Uint8Array; encryptionInfo: EncryptionInfo; fileKey: CryptoKey }> {
  const fileKey = await generateFileKey();
  const count = chunkCount(content.length, chunkSize);
  const pieces: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const plain = content.subarray(i * chunkSize, Math.min(content.length, (i + 1) * chunkSize));
    pieces.push(await encryptChunk(fileKey, i, i === count - 1, plain));
  }
  const info = buildOwnerEncryptionInfo('key-1', await wrapFileKey(fileKey, publicKey));
  // The stored record keeps the chunk size the content was cut with.
  return { ciphertext: concat(pieces), encryptionInfo: { ...info, chunkSize }, fileKey };
}
