import { randomBytes, webcrypto } from 'node:crypto';
import type { CreateKeyRequest, NewEncryptionInfo } from '@coffer/contracts';
import { CHUNK_SIZE } from '@coffer/contracts';

/** A real RSA-OAEP public key (SPKI, base64) and a well-formed wrapped-key envelope. */
export async function buildKeyRequest(): Promise<CreateKeyRequest> {
  const pair = await webcrypto.subtle.generateKey(
    { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['encrypt', 'decrypt'],
  );
  const spki = Buffer.from(await webcrypto.subtle.exportKey('spki', pair.publicKey));
  return { publicKey: spki.toString('base64'), encryptedPrivateKey: buildWrappedKeyJson() };
}

/** The server never opens this; it only checks the envelope's shape. */
export function buildWrappedKeyJson(iterations = 600_000): string {
  return JSON.stringify({
    iv: randomBytes(12).toString('base64'),
    salt: randomBytes(16).toString('base64'),
    data: randomBytes(1232).toString('base64'),
    kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations },
  });
}

/** A wrapped file key as RSA-OAEP-2048 yields it: 256 bytes, base64. */
export function wrappedKeyB64(): string {
  return randomBytes(256).toString('base64');
}

/** coffer-v1 encryption info for a file under the key record `keyId`. */
export function encryptionInfoFor(keyId: string): NewEncryptionInfo {
  return {
    version: keyId,
    algorithm: 'AES-GCM',
    iv: '',
    encryptedFileKey: wrappedKeyB64(),
    format: 'coffer-v1',
    chunkSize: CHUNK_SIZE,
  };
}
