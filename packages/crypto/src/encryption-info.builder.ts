import { CHUNK_SIZE, FORMAT } from './format.constants.js';

/** The owner's copy of a file's key and format, stored with the file as `encryptionInfo`. */
export interface OwnerEncryptionInfo {
  /** Id of the owner's key pair that `encryptedFileKey` is encrypted to. */
  version: string;
  algorithm: 'AES-GCM';
  /** Always empty in coffer-v1: each chunk carries its own IV. Kept for the spec's shape. */
  iv: '';
  /** base64(RSA-OAEP-SHA256(ownerPublicKey, fileKey)). */
  encryptedFileKey: string;
  format: typeof FORMAT;
  chunkSize: typeof CHUNK_SIZE;
}

/** A recipient's copy of a file key, sent when sharing (`POST /users/files/{id}/share`). */
export interface ShareKeyCopy {
  /** base64(RSA-OAEP-SHA256(recipientPublicKey, fileKey)). */
  encryptedFileKey: string;
  /** Id of the recipient's key pair. */
  keyVersion: string;
}

/** Builds the owner's `encryptionInfo` for a new file. */
export function buildOwnerEncryptionInfo(
  ownerKeyId: string,
  encryptedFileKeyB64: string,
): OwnerEncryptionInfo {
  return {
    version: ownerKeyId,
    algorithm: 'AES-GCM',
    iv: '',
    encryptedFileKey: encryptedFileKeyB64,
    format: FORMAT,
    chunkSize: CHUNK_SIZE,
  };
}

/** Builds a recipient's share copy from {@link rewrapFileKey}'s result. */
export function buildShareKeyCopy(recipientKeyId: string, encryptedFileKeyB64: string): ShareKeyCopy {
  return { encryptedFileKey: encryptedFileKeyB64, keyVersion: recipientKeyId };
}
