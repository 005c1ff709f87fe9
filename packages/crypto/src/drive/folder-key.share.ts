import { unwrapFromKeyPair, wrapToKeyPair } from './drive-key.wrap.js';
import { unwrapNodeKeyForRewrap } from './node-key.wrap.js';
import type { NodePlace } from './node-place.js';

/** A folder as its owner holds it: its `wrappedKey`, its parent's key and its place. */
export interface OwnedFolderKey {
  wrappedKeyB64: string;
  parentKey: CryptoKey;
  place: NodePlace;
}

/**
 * Sharing a folder: opens the folder's `wrappedKey` under its parent and wraps the same folder
 * key to the recipient's RSA public key: the share's `encryptedFolderKey` (base64 RSA-OAEP-SHA256).
 * Extractable only inside this call, inside WebCrypto.
 * @throws {NodeKeyUnwrapError} the folder's wrap does not open at its place.
 */
export async function wrapFolderKeyForRecipient(
  folder: OwnedFolderKey,
  recipientPublicKey: CryptoKey,
): Promise<string> {
  const folderKey = await unwrapNodeKeyForRewrap(
    folder.wrappedKeyB64,
    folder.parentKey,
    folder.place,
    'folder',
  );
  return wrapToKeyPair(folderKey, recipientPublicKey);
}

/**
 * The recipient's side: opens a folder share's `encryptedFolderKey` with their RSA private key.
 * Check the grant first (`verifyFolderGrant`).
 * @returns a NON-extractable folder key (encrypt, decrypt, wrapKey, unwrapKey): open the tree below with it.
 * @throws {NodeKeyUnwrapError}
 */
export async function unwrapFolderKeyFromGrant(
  encryptedFolderKeyB64: string,
  rsaPrivateKey: CryptoKey,
): Promise<CryptoKey> {
  return unwrapFromKeyPair(encryptedFolderKeyB64, rsaPrivateKey, 'folder', false, 'folder key');
}
