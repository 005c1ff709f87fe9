import { base64ToBytes, bytesToBase64 } from './base64.codec.js';
import { toBufferSource } from './bytes.util.js';
import { FileKeyUnwrapError, InvalidArgumentError } from './crypto.errors.js';
import { FILE_KEY_LENGTH } from './format.constants.js';

const AES_GCM_256: AesKeyGenParams = { name: 'AES-GCM', length: FILE_KEY_LENGTH * 8 };
const RSA_OAEP: RsaOaepParams = { name: 'RSA-OAEP' };
const FILE_KEY_USAGES: KeyUsage[] = ['encrypt', 'decrypt'];

/**
 * Generates a new file key: 32 random bytes for AES-256-GCM, one per file.
 *
 * It is extractable because it has to be wrapped ({@link wrapFileKey}) for its owner; WebCrypto
 * does the wrapping, so its bytes still never reach JavaScript.
 */
export async function generateFileKey(): Promise<CryptoKey> {
  return crypto.subtle.generateKey(AES_GCM_256, true, FILE_KEY_USAGES);
}

/** Encrypts a file key to a user's public key with RSA-OAEP (SHA-256): the `encryptedFileKey` in base64. */
export async function wrapFileKey(fileKey: CryptoKey, publicKey: CryptoKey): Promise<string> {
  assertFileKey(fileKey);
  return bytesToBase64(new Uint8Array(await crypto.subtle.wrapKey('raw', fileKey, publicKey, RSA_OAEP)));
}

/**
 * Decrypts an `encryptedFileKey` with the user's private key. The result is a NON-extractable
 * AES-256-GCM key for {@link encryptStream}, {@link decryptStream} and the chunk functions.
 * @throws {FileKeyUnwrapError} not base64, encrypted to another key, altered, or not a 256-bit key.
 */
export async function unwrapFileKey(encryptedFileKeyB64: string, privateKey: CryptoKey): Promise<CryptoKey> {
  return unwrapFileKeyAs(encryptedFileKeyB64, privateKey, false);
}

/**
 * Sharing: decrypts the owner's `encryptedFileKey` with the owner's private key and encrypts the
 * same file key to the recipient's public key. Returns the recipient's `encryptedFileKey` (base64).
 * The file key exists in extractable form only inside this call, and only inside WebCrypto.
 * @throws {FileKeyUnwrapError} the owner's copy cannot be decrypted with `ownerPrivateKey`.
 */
export async function rewrapFileKey(
  encryptedFileKeyB64: string,
  ownerPrivateKey: CryptoKey,
  recipientPublicKey: CryptoKey,
): Promise<string> {
  const fileKey = await unwrapFileKeyAs(encryptedFileKeyB64, ownerPrivateKey, true);
  return wrapFileKey(fileKey, recipientPublicKey);
}

/**
 * Imports raw file key bytes. Not part of the public API (the app never sees raw file keys); used
 * by test vectors and tools.
 */
export async function importFileKeyBytes(rawBytes: Uint8Array, extractable = false): Promise<CryptoKey> {
  if (rawBytes.length !== FILE_KEY_LENGTH) {
    throw new InvalidArgumentError(`a file key is ${FILE_KEY_LENGTH} bytes, got ${rawBytes.length}`);
  }
  return crypto.subtle.importKey('raw', toBufferSource(rawBytes), 'AES-GCM', extractable, FILE_KEY_USAGES);
}

async function unwrapFileKeyAs(
  encryptedFileKeyB64: string,
  privateKey: CryptoKey,
  extractable: boolean,
): Promise<CryptoKey> {
  let wrappedBytes: Uint8Array<ArrayBuffer>;
  try {
    wrappedBytes = base64ToBytes(encryptedFileKeyB64);
  } catch (cause) {
    throw new FileKeyUnwrapError({ cause });
  }
  let fileKey: CryptoKey;
  try {
    fileKey = await crypto.subtle.unwrapKey(
      'raw',
      wrappedBytes,
      privateKey,
      RSA_OAEP,
      'AES-GCM',
      extractable,
      FILE_KEY_USAGES,
    );
  } catch (cause) {
    throw new FileKeyUnwrapError({ cause });
  }
  // A 16- or 24-byte payload would import as AES-128/192; coffer-v1 file keys are always 256-bit.
  try {
    assertFileKey(fileKey);
  } catch (cause) {
    throw new FileKeyUnwrapError({ cause });
  }
  return fileKey;
}

/** Throws {@link InvalidArgumentError} unless the key is an AES-GCM 256-bit key. */
export function assertFileKey(fileKey: CryptoKey): void {
  const algorithm = fileKey.algorithm as Partial<AesKeyAlgorithm>;
  if (algorithm.name !== 'AES-GCM' || algorithm.length !== FILE_KEY_LENGTH * 8) {
    throw new InvalidArgumentError('a file key must be an AES-GCM 256-bit CryptoKey');
  }
}
