import { base64ToBytes, bytesToBase64 } from '../base64.codec.js';
import { concatBytes } from '../bytes.util.js';
import { FileKeyUnwrapError, InvalidArgumentError, NodeKeyUnwrapError } from '../crypto.errors.js';
import { FILE_KEY_LENGTH, IV_LENGTH, TAG_LENGTH } from '../format.constants.js';
import { isAes256GcmKey, NODE_KEY_PARAMS } from './aes-key.check.js';
import { unwrapFromKeyPair } from './drive-key.wrap.js';
import { nodeKeyAad, nodeKeyUsages, type NodeKind, type NodePlace } from './node-place.js';

/** Bytes of a node key wrapped under its parent: iv (12) || wrapped key (32) || tag (16). */
export const WRAPPED_NODE_KEY_LENGTH = IV_LENGTH + FILE_KEY_LENGTH + TAG_LENGTH;

/** A key and where it is (or goes) in the tree: its parent's key and its place under that parent. */
export interface NodeKeyParent {
  parentKey: CryptoKey;
  place: NodePlace;
}

/**
 * Wraps a NEW node key under its parent (the drive key at the top, else the folder's key):
 * base64 of `iv(12) || AES-256-GCM(parentKey, iv, aad, raw key)` with
 * aad `coffer-v2/node-key/<parentNodeId>/<nodeId>`. The key must be extractable: a file key as
 * `generateFileKey` makes it (a folder key comes from {@link createFolderKey}). A key already in
 * the tree moves with {@link rewrapNodeKey}.
 */
export async function wrapNodeKey(
  nodeKey: CryptoKey,
  parentKey: CryptoKey,
  place: NodePlace,
): Promise<string> {
  return wrapNodeKeyWith(nodeKey, parentKey, place, crypto.getRandomValues(new Uint8Array(IV_LENGTH)));
}

/**
 * {@link wrapNodeKey} with a given IV. Not part of the public API: only for test vectors (an IV
 * must never be reused under the same parent key).
 */
export async function wrapNodeKeyWith(
  nodeKey: CryptoKey,
  parentKey: CryptoKey,
  place: NodePlace,
  ivBytes: Uint8Array,
): Promise<string> {
  const aad = nodeKeyAad(place);
  if (ivBytes.length !== IV_LENGTH) throw new InvalidArgumentError(`iv must be ${IV_LENGTH} bytes`);
  if (!isAes256GcmKey(nodeKey)) throw new InvalidArgumentError('a node key must be an AES-GCM 256-bit key');
  if (!nodeKey.extractable) {
    throw new InvalidArgumentError('only a new (extractable) key is wrapped; move a key with rewrapNodeKey');
  }
  const iv = new Uint8Array(ivBytes);
  const wrapped = await crypto.subtle.wrapKey('raw', nodeKey, parentKey, {
    name: 'AES-GCM',
    iv,
    additionalData: aad,
  });
  return bytesToBase64(concatBytes([iv, new Uint8Array(wrapped)]));
}

/**
 * Opens a node's `wrappedKey` with its parent's key, at the place the server serves it.
 * @returns a NON-extractable AES-256-GCM key: for a file, the coffer-v1 content key (encrypt,
 * decrypt: what `unwrapFileKey` gives); for a folder, also wrapKey and unwrapKey.
 * @throws {NodeKeyUnwrapError} not base64, the wrong length, another parent's key, another place
 * (moved under another parent or to another node id), or altered.
 */
export async function unwrapNodeKey(
  wrappedKeyB64: string,
  parentKey: CryptoKey,
  place: NodePlace,
  kind: NodeKind,
): Promise<CryptoKey> {
  return unwrapNodeKeyAs(wrappedKeyB64, parentKey, place, kind, false);
}

/**
 * A new folder's key, wrapped under its parent. The key is extractable only inside this call.
 * @returns the folder key to use (non-extractable) and its `wrappedKey`.
 */
export async function createFolderKey(
  parentKey: CryptoKey,
  place: NodePlace,
): Promise<{ folderKey: CryptoKey; wrappedKeyB64: string }> {
  const extractable = await crypto.subtle.generateKey(NODE_KEY_PARAMS, true, nodeKeyUsages('folder'));
  const wrappedKeyB64 = await wrapNodeKey(extractable, parentKey, place);
  return { folderKey: await unwrapNodeKey(wrappedKeyB64, parentKey, place, 'folder'), wrappedKeyB64 };
}

/**
 * Moves a node: opens its `wrappedKey` at its current place and wraps the same key at the new one
 * (new parent, same node id). Extractable only inside this call, inside WebCrypto.
 * @throws {NodeKeyUnwrapError} the wrap does not open at `from`.
 */
export async function rewrapNodeKey(
  wrappedKeyB64: string,
  kind: NodeKind,
  from: NodeKeyParent,
  to: NodeKeyParent,
): Promise<string> {
  const nodeKey = await unwrapNodeKeyForRewrap(wrappedKeyB64, from.parentKey, from.place, kind);
  return wrapNodeKey(nodeKey, to.parentKey, to.place);
}

/**
 * Migration of a file from before the key tree: opens its RSA owner copy (`encryptedFileKey`)
 * with the owner's private key and wraps the same file key under its parent. Extractable only
 * inside this call, inside WebCrypto (as `rewrapFileKey` does for shares).
 * @throws {FileKeyUnwrapError} the owner copy does not open with `rsaPrivateKey`.
 */
export async function wrapFileKeyForParent(
  encryptedFileKeyB64: string,
  rsaPrivateKey: CryptoKey,
  parentKey: CryptoKey,
  place: NodePlace,
): Promise<string> {
  let fileKey: CryptoKey;
  try {
    fileKey = await unwrapFromKeyPair(encryptedFileKeyB64, rsaPrivateKey, 'file', true, 'file key');
  } catch (cause) {
    throw new FileKeyUnwrapError({ cause });
  }
  return wrapNodeKey(fileKey, parentKey, place);
}

/**
 * {@link unwrapNodeKey} as an EXTRACTABLE key, for a function of this room that wraps it again
 * within the same call (move, folder share). Not part of the public API.
 */
export async function unwrapNodeKeyForRewrap(
  wrappedKeyB64: string,
  parentKey: CryptoKey,
  place: NodePlace,
  kind: NodeKind,
): Promise<CryptoKey> {
  return unwrapNodeKeyAs(wrappedKeyB64, parentKey, place, kind, true);
}

async function unwrapNodeKeyAs(
  wrappedKeyB64: string,
  parentKey: CryptoKey,
  place: NodePlace,
  kind: NodeKind,
  extractable: boolean,
): Promise<CryptoKey> {
  const aad = nodeKeyAad(place);
  const failed = (cause: unknown): NodeKeyUnwrapError =>
    new NodeKeyUnwrapError(
      `the ${kind} key of node ${place.nodeId} does not open under ${place.parentNodeId}`,
      {
        cause,
      },
    );
  return unwrapPlacedKey(wrappedKeyB64, parentKey, aad, {
    extractable,
    usages: nodeKeyUsages(kind),
    failed,
  });
}

/**
 * Opens an `iv || AES-256-GCM(wrapKey, iv, aad, 32-byte key)` wrap (a node key under its parent, a
 * file key under a link key) as an AES-GCM key; every failure, shape or tag, is the caller's error.
 */
export async function unwrapPlacedKey(
  wrappedKeyB64: string,
  wrapKey: CryptoKey,
  aad: Uint8Array<ArrayBuffer>,
  options: { extractable: boolean; usages: KeyUsage[]; failed: (cause: unknown) => Error },
): Promise<CryptoKey> {
  const { failed } = options;
  let wrappedBytes: Uint8Array<ArrayBuffer>;
  try {
    wrappedBytes = base64ToBytes(wrappedKeyB64);
  } catch (cause) {
    throw failed(cause);
  }
  if (wrappedBytes.length !== WRAPPED_NODE_KEY_LENGTH) {
    throw failed(new InvalidArgumentError(`a wrapped key is ${WRAPPED_NODE_KEY_LENGTH} bytes`));
  }
  try {
    // The length check above fixes the key at 32 bytes: AES-GCM unwrap yields exactly what was wrapped.
    return await crypto.subtle.unwrapKey(
      'raw',
      wrappedBytes.subarray(IV_LENGTH),
      wrapKey,
      { name: 'AES-GCM', iv: wrappedBytes.subarray(0, IV_LENGTH), additionalData: aad },
      'AES-GCM',
      options.extractable,
      options.usages,
    );
  } catch (cause) {
    throw failed(cause);
  }
}
