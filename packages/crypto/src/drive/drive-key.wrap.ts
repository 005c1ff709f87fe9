import { base64ToBytes, bytesToBase64 } from '../base64.codec.js';
import { InvalidArgumentError, NodeKeyUnwrapError } from '../crypto.errors.js';
import { isAes256GcmKey, NODE_KEY_PARAMS, nonExtractableCopy } from './aes-key.check.js';
import { nodeKeyUsages } from './node-place.js';

const RSA_OAEP: RsaOaepParams = { name: 'RSA-OAEP' };

/** A new drive key: the key to use, and its RSA-OAEP wraps (`wrappedDriveKey`) in the order given. */
export interface NewDriveKey {
  /** Non-extractable AES-256-GCM key with encrypt, decrypt, wrapKey and unwrapKey. */
  driveKey: CryptoKey;
  /** base64(RSA-OAEP-SHA256(publicKey, driveKey)) for each public key, in order. */
  wrappedDriveKeysB64: string[];
}

/**
 * Makes the user's drive key (32 random bytes, AES-256-GCM: the root of the key tree) and wraps it
 * to each of the user's RSA public keys. The key exists in extractable form only inside this call;
 * the caller gets a non-extractable one. A key pair added later gets its copy from {@link rewrapDriveKey}.
 */
export async function createDriveKey(rsaPublicKeys: readonly CryptoKey[]): Promise<NewDriveKey> {
  if (rsaPublicKeys.length === 0) throw new InvalidArgumentError('a drive key needs a public key to wrap to');
  const extractable = await crypto.subtle.generateKey(NODE_KEY_PARAMS, true, nodeKeyUsages('folder'));
  const wrappedDriveKeysB64 = await Promise.all(
    rsaPublicKeys.map(async (publicKey) => wrapToKeyPair(extractable, publicKey)),
  );
  return { driveKey: await nonExtractableCopy(extractable, nodeKeyUsages('folder')), wrappedDriveKeysB64 };
}

/**
 * Opens a `wrappedDriveKey` with the user's RSA private key: the one RSA operation of an unlock.
 * @returns a NON-extractable AES-256-GCM key with encrypt, decrypt, wrapKey and unwrapKey.
 * @throws {NodeKeyUnwrapError} not base64, wrapped to another key pair, altered, or not 256 bits.
 */
export async function unwrapDriveKey(
  wrappedDriveKeyB64: string,
  rsaPrivateKey: CryptoKey,
): Promise<CryptoKey> {
  return unwrapFromKeyPair(wrappedDriveKeyB64, rsaPrivateKey, 'folder', false, 'drive key');
}

/**
 * Wraps the drive key to another of the user's key pairs (a key pair added after the drive key):
 * opens `wrappedDriveKeyB64` with a private key the user holds and wraps the same key to
 * `rsaPublicKey`. Extractable only inside this call, inside WebCrypto.
 * @throws {NodeKeyUnwrapError} the wrap does not open with `rsaPrivateKey`.
 */
export async function rewrapDriveKey(
  wrappedDriveKeyB64: string,
  rsaPrivateKey: CryptoKey,
  rsaPublicKey: CryptoKey,
): Promise<string> {
  const driveKey = await unwrapFromKeyPair(wrappedDriveKeyB64, rsaPrivateKey, 'folder', true, 'drive key');
  return wrapToKeyPair(driveKey, rsaPublicKey);
}

/** base64(RSA-OAEP-SHA256(publicKey, raw key)) of an extractable AES-256-GCM key. */
export async function wrapToKeyPair(key: CryptoKey, rsaPublicKey: CryptoKey): Promise<string> {
  if (!isAes256GcmKey(key)) throw new InvalidArgumentError('only AES-GCM 256-bit keys are wrapped');
  return bytesToBase64(new Uint8Array(await crypto.subtle.wrapKey('raw', key, rsaPublicKey, RSA_OAEP)));
}

/**
 * Opens an RSA-OAEP wrap of a drive or folder key (`what` names it in the error).
 * @throws {NodeKeyUnwrapError}
 */
export async function unwrapFromKeyPair(
  wrappedKeyB64: string,
  rsaPrivateKey: CryptoKey,
  kind: 'file' | 'folder',
  extractable: boolean,
  what: string,
): Promise<CryptoKey> {
  const failed = (cause: unknown): NodeKeyUnwrapError =>
    new NodeKeyUnwrapError(`the ${what} could not be decrypted with this private key`, { cause });
  let wrappedBytes: Uint8Array<ArrayBuffer>;
  try {
    wrappedBytes = base64ToBytes(wrappedKeyB64);
  } catch (cause) {
    throw failed(cause);
  }
  let key: CryptoKey;
  try {
    key = await crypto.subtle.unwrapKey(
      'raw',
      wrappedBytes,
      rsaPrivateKey,
      RSA_OAEP,
      'AES-GCM',
      extractable,
      nodeKeyUsages(kind),
    );
  } catch (cause) {
    throw failed(cause);
  }
  if (!isAes256GcmKey(key)) throw failed(new InvalidArgumentError('not a 256-bit key'));
  return key;
}
