import { bytesToBase64 } from '../base64.codec.js';
import { concatBytes, utf8Bytes } from '../bytes.util.js';
import { InvalidArgumentError, LinkKeyUnwrapError } from '../crypto.errors.js';
import { IV_LENGTH } from '../format.constants.js';
import { isAes256GcmKey } from '../drive/aes-key.check.js';
import { unwrapFromKeyPair } from '../drive/drive-key.wrap.js';
import { unwrapNodeKeyForRewrap, unwrapPlacedKey } from '../drive/node-key.wrap.js';
import { isNodeId, nodeKeyUsages, type NodePlace } from '../drive/node-place.js';
import { isLinkId } from './link-secret.fragment.js';

/** One file a link grants: the link's id and the server's file id (a lower-case UUID). */
export interface LinkItemPlace {
  linkId: string;
  fileId: string;
}

/** Where the owner's browser finds a file key to put under a link. */
export type LinkFileKeySource =
  /** A file in the key tree: its `wrappedKey` under its folder's (or the drive) key. */
  | { wrappedKeyB64: string; parentKey: CryptoKey; place: NodePlace }
  /** A file from before the key tree: its RSA owner copy (`encryptedFileKey`). */
  | { encryptedFileKeyB64: string; rsaPrivateKey: CryptoKey };

/** Throws {@link InvalidArgumentError} unless the ids can go into an AAD joined by `/`. */
export function assertLinkItemPlace(item: LinkItemPlace): void {
  if (!isLinkId(item.linkId)) throw new InvalidArgumentError('linkId must be 22 base64url characters');
  if (!isNodeId(item.fileId)) throw new InvalidArgumentError('fileId must be a lower-case UUID');
}

/** AAD of a file key under a link key: ASCII `coffer-v2/link-key/<linkId>/<fileId>`. */
export function linkKeyAad(item: LinkItemPlace): Uint8Array<ArrayBuffer> {
  assertLinkItemPlace(item);
  return utf8Bytes(`coffer-v2/link-key/${item.linkId}/${item.fileId}`);
}

/**
 * Puts a file key under a link key `K`: base64 of `iv(12) || AES-256-GCM(K, iv, aad, key)` with aad
 * `coffer-v2/link-key/<linkId>/<fileId>` (60 bytes, as a node key wrap). The file key is opened
 * extractable only inside this call, inside WebCrypto (as a move does in the key tree).
 * @throws {NodeKeyUnwrapError} the source does not open.
 */
export async function wrapFileKeyForLink(
  source: LinkFileKeySource,
  linkWrapKey: CryptoKey,
  item: LinkItemPlace,
): Promise<string> {
  const fileKey =
    'wrappedKeyB64' in source
      ? await unwrapNodeKeyForRewrap(source.wrappedKeyB64, source.parentKey, source.place, 'file')
      : await unwrapFromKeyPair(source.encryptedFileKeyB64, source.rsaPrivateKey, 'file', true, 'file key');
  return wrapLinkFileKeyWith(fileKey, linkWrapKey, item, crypto.getRandomValues(new Uint8Array(IV_LENGTH)));
}

/**
 * Wraps an EXTRACTABLE file key (a new one from `generateFileKey`) under a link key with a given IV.
 * Test vectors use a fixed IV; everything else goes through {@link wrapFileKeyForLink}.
 */
export async function wrapLinkFileKeyWith(
  fileKey: CryptoKey,
  linkWrapKey: CryptoKey,
  item: LinkItemPlace,
  ivBytes: Uint8Array,
): Promise<string> {
  const aad = linkKeyAad(item);
  if (ivBytes.length !== IV_LENGTH) throw new InvalidArgumentError(`iv must be ${IV_LENGTH} bytes`);
  if (!isAes256GcmKey(fileKey) || !fileKey.extractable) {
    throw new InvalidArgumentError('a link wraps an extractable AES-GCM 256-bit file key');
  }
  const iv = new Uint8Array(ivBytes);
  const wrapped = await crypto.subtle.wrapKey('raw', fileKey, linkWrapKey, {
    name: 'AES-GCM',
    iv,
    additionalData: aad,
  });
  return bytesToBase64(concatBytes([iv, new Uint8Array(wrapped)]));
}

/**
 * Opens a file key served under a link, for this link and file.
 * @returns the coffer-v1 content key, non-extractable (encrypt, decrypt).
 * @throws {LinkKeyUnwrapError} not base64, the wrong length, a wrong secret or password, another
 * link's or file's item (the AAD names both), or altered.
 */
export async function unwrapLinkFileKey(
  wrappedKeyB64: string,
  linkWrapKey: CryptoKey,
  item: LinkItemPlace,
): Promise<CryptoKey> {
  const aad = linkKeyAad(item);
  const failed = (cause: unknown): LinkKeyUnwrapError =>
    new LinkKeyUnwrapError(`the key of file ${item.fileId} does not open under link ${item.linkId}`, {
      cause,
    });
  return unwrapPlacedKey(wrappedKeyB64, linkWrapKey, aad, {
    extractable: false,
    usages: nodeKeyUsages('file'),
    failed,
  });
}
