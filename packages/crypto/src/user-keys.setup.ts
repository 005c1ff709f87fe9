import { exportPublicKeyB64, generateUserKeyPair } from './key-pair.rsa.js';
import { encryptPrivateKey, unlockPrivateKey, type EncryptPrivateKeyOptions } from './private-key.record.js';

/** What encryption set-up produces: the key record to upload and the keys to use now. */
export interface NewUserKeys {
  /** base64 SPKI: the key record's `publicKey`. */
  publicKeyB64: string;
  /** The key record's `encryptedPrivateKey`. */
  encryptedPrivateKeyJson: string;
  publicKey: CryptoKey;
  /** Non-extractable, `decrypt`/`unwrapKey` only, as {@link unlockPrivateKey} returns it. */
  privateKey: CryptoKey;
}

/**
 * Encryption set-up: generates a key pair, wraps the private key with `password`, and returns the
 * record to upload plus a non-extractable private key for this session. The extractable private
 * key never leaves this function. The usable key is obtained by opening the new record, which also
 * proves the record opens before it is uploaded.
 */
export async function createUserKeys(
  password: string,
  options: EncryptPrivateKeyOptions = {},
): Promise<NewUserKeys> {
  const keyPair = await generateUserKeyPair();
  const encryptedPrivateKeyJson = await encryptPrivateKey(keyPair.privateKey, password, options);
  const privateKey = await unlockPrivateKey(encryptedPrivateKeyJson, password);
  return {
    publicKeyB64: await exportPublicKeyB64(keyPair.publicKey),
    encryptedPrivateKeyJson,
    publicKey: keyPair.publicKey,
    privateKey,
  };
}
