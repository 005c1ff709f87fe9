import { base64ToBytes, bytesToBase64 } from '../base64.codec.js';
import { concatBytes, utf8Bytes } from '../bytes.util.js';
import { InvalidArgumentError, MetadataInvalidError } from '../crypto.errors.js';
import { IV_LENGTH, TAG_LENGTH } from '../format.constants.js';
import { isPlainObject } from '../signed-record.util.js';
import { metadataAad } from './node-place.js';

/** Longest name a node's metadata holds, in UTF-16 code units (what `String#length` counts). */
export const MAX_NODE_NAME_LENGTH = 1024;

/** Longest content type a file's metadata holds. */
export const MAX_CONTENT_TYPE_LENGTH = 255;

/** What a node's encrypted metadata holds: a file's name and type, or a folder's name. */
export interface NodeMetadata {
  /** 1 to {@link MAX_NODE_NAME_LENGTH} UTF-16 units, as typed; shown through `sanitizeDisplayName`. */
  name: string;
  /** Files only: up to {@link MAX_CONTENT_TYPE_LENGTH} characters. */
  contentType?: string;
}

const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Seals a node's metadata under the node's own key (a file's content key, a folder's key):
 * base64 of `iv(12) || AES-256-GCM(nodeKey, iv, aad, UTF-8 JSON {"name","contentType"?})` with
 * aad `coffer-v2/metadata/<nodeId>`, so it opens only for this node. Whoever holds the node's key
 * (the owner, a share's recipient, a link) reads exactly its metadata.
 * @throws {InvalidArgumentError} a name or content type outside {@link NodeMetadata}'s limits.
 */
export async function sealMetadata(
  nodeKey: CryptoKey,
  nodeId: string,
  metadata: NodeMetadata,
): Promise<string> {
  return sealMetadataWith(nodeKey, nodeId, metadata, crypto.getRandomValues(new Uint8Array(IV_LENGTH)));
}

/**
 * {@link sealMetadata} with a given IV. Not part of the public API: only for test vectors (an IV
 * must never be reused under the same key).
 */
export async function sealMetadataWith(
  nodeKey: CryptoKey,
  nodeId: string,
  metadata: NodeMetadata,
  ivBytes: Uint8Array,
): Promise<string> {
  const aad = metadataAad(nodeId);
  const plain = checkedMetadata(metadata);
  if (plain === null)
    throw new InvalidArgumentError('metadata needs a name of 1 to 1024 and a type of up to 255 characters');
  if (ivBytes.length !== IV_LENGTH) throw new InvalidArgumentError(`iv must be ${IV_LENGTH} bytes`);
  const iv = new Uint8Array(ivBytes);
  const ciphertext = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: aad },
    nodeKey,
    utf8Bytes(JSON.stringify(plain)),
  );
  return bytesToBase64(concatBytes([iv, new Uint8Array(ciphertext)]));
}

/**
 * Opens a node's `encryptedMetadata` with its key, for this node id. Strict: a JSON object with
 * exactly a string `name` (1 to 1024 UTF-16 units) and, optionally, a string `contentType` (up to 255).
 * @throws {MetadataInvalidError} not base64, too short, another node's metadata, another key,
 * altered, or not of that shape.
 */
export async function openMetadata(
  nodeKey: CryptoKey,
  nodeId: string,
  encryptedMetadataB64: string,
): Promise<NodeMetadata> {
  const aad = metadataAad(nodeId);
  let sealed: Uint8Array<ArrayBuffer>;
  try {
    sealed = base64ToBytes(encryptedMetadataB64);
  } catch (cause) {
    throw new MetadataInvalidError('the metadata is not base64', { cause });
  }
  if (sealed.length < IV_LENGTH + TAG_LENGTH) throw new MetadataInvalidError('the metadata is too short');
  let plainBytes: ArrayBuffer;
  try {
    plainBytes = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: sealed.subarray(0, IV_LENGTH), additionalData: aad },
      nodeKey,
      sealed.subarray(IV_LENGTH),
    );
  } catch (cause) {
    throw new MetadataInvalidError(`the metadata of node ${nodeId} does not open with its key`, { cause });
  }
  let value: unknown;
  try {
    value = JSON.parse(utf8Decoder.decode(plainBytes));
  } catch (cause) {
    throw new MetadataInvalidError('the metadata is not UTF-8 JSON', { cause });
  }
  const metadata = isPlainObject(value) ? checkedMetadata(value) : null;
  if (metadata === null) throw new MetadataInvalidError('the metadata is not a name and a content type');
  return metadata;
}

/**
 * The metadata with exactly its members (in wire order), or null when a member is missing, extra or
 * out of bounds. A node's metadata and a link's sealed file name (links/link-text.seal.ts) share it.
 */
export function checkedMetadata(value: object): NodeMetadata | null {
  const { name, contentType, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return null;
  if (typeof name !== 'string' || name.length === 0 || name.length > MAX_NODE_NAME_LENGTH) return null;
  if (contentType === undefined) return { name };
  if (typeof contentType !== 'string' || contentType.length > MAX_CONTENT_TYPE_LENGTH) return null;
  return { name, contentType };
}
