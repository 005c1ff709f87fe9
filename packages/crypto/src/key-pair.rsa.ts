import { bytesToBase64, spkiBytesFromB64 } from './base64.codec.js';
import { toBufferSource } from './bytes.util.js';
import { InvalidKeyError } from './crypto.errors.js';
import { RSA_OAEP_PARAMS } from './format.constants.js';

const RSA_IMPORT_PARAMS: RsaHashedImportParams = { name: 'RSA-OAEP', hash: 'SHA-256' };

/**
 * Generates a user key pair: RSA-OAEP 2048, e = 65537, SHA-256.
 *
 * The private key is extractable because it must be exported once, to be wrapped with the user's
 * password ({@link encryptPrivateKey}). Do not keep it: use the non-extractable key that
 * `unlockPrivateKey` or `createUserKeys` returns.
 */
export async function generateUserKeyPair(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey(RSA_OAEP_PARAMS, true, ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey']);
}

/** Standard base64 of the public key's SPKI DER encoding: the `publicKey` field of a key record. */
export async function exportPublicKeyB64(publicKey: CryptoKey): Promise<string> {
  return bytesToBase64(await exportPublicKeySpki(publicKey));
}

/** SPKI DER bytes of a public key. */
export async function exportPublicKeySpki(publicKey: CryptoKey): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await crypto.subtle.exportKey('spki', publicKey));
}

/** PKCS#8 DER bytes of an extractable private key. Keep these bytes out of any storage. */
export async function exportPrivateKeyPkcs8(privateKey: CryptoKey): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await crypto.subtle.exportKey('pkcs8', privateKey));
}

/**
 * Imports a user's public key from base64 SPKI, usable to wrap file keys for that user.
 * Throws {@link InvalidKeyError} if the text is not base64 of an RSA-OAEP 2048-bit SPKI key.
 */
export async function importPublicKeyB64(publicKeyB64: string): Promise<CryptoKey> {
  return importPublicKeySpki(spkiBytesFromB64(publicKeyB64));
}

/** Imports a public key from SPKI DER bytes. Throws {@link InvalidKeyError} if it is not RSA 2048. */
export async function importPublicKeySpki(spkiBytes: Uint8Array): Promise<CryptoKey> {
  return importRsa2048('spki', spkiBytes, true, ['encrypt', 'wrapKey'], 'public key is not an RSA SPKI key');
}

/**
 * Imports a private key from PKCS#8 DER as NON-extractable, with only the `decrypt` and `unwrapKey`
 * usages: once imported, the key can open file keys but its bytes can never be read back.
 */
export async function importPrivateKeyPkcs8(pkcs8Bytes: Uint8Array): Promise<CryptoKey> {
  return importRsa2048(
    'pkcs8',
    pkcs8Bytes,
    false,
    ['decrypt', 'unwrapKey'],
    'private key is not an RSA PKCS#8 key',
  );
}

async function importRsa2048(
  format: 'spki' | 'pkcs8',
  keyBytes: Uint8Array,
  extractable: boolean,
  usages: KeyUsage[],
  notAKey: string,
): Promise<CryptoKey> {
  let key: CryptoKey;
  try {
    key = await crypto.subtle.importKey(
      format,
      toBufferSource(keyBytes),
      RSA_IMPORT_PARAMS,
      extractable,
      usages,
    );
  } catch (cause) {
    throw new InvalidKeyError(notAKey, { cause });
  }
  assertRsa2048(key);
  return key;
}

/** The algorithm a private key is imported with, for `unwrapKey` calls that import one. */
export const RSA_OAEP_IMPORT_PARAMS: RsaHashedImportParams = RSA_IMPORT_PARAMS;

/** Throws {@link InvalidKeyError} unless the key is an RSA key with a 2048-bit modulus. */
export function assertRsa2048(key: CryptoKey): void {
  const algorithm = key.algorithm as Partial<RsaHashedKeyAlgorithm>;
  if (algorithm.modulusLength !== RSA_OAEP_PARAMS.modulusLength) {
    throw new InvalidKeyError(`expected a 2048-bit RSA key, got ${String(algorithm.modulusLength)} bits`);
  }
}
