import { base64ToBytes, bytesToBase64 } from '../base64.codec.js';
import { concatBytes, utf8Bytes } from '../bytes.util.js';
import { InvalidArgumentError, LinkKeyUnwrapError } from '../crypto.errors.js';
import { IV_LENGTH, TAG_LENGTH } from '../format.constants.js';
import { checkedMetadata, type NodeMetadata } from '../drive/node-metadata.seal.js';
import { isPlainObject } from '../signed-record.util.js';
import { linkKeyAad, type LinkItemPlace } from './link-key.wrap.js';
import { isLinkId } from './link-secret.fragment.js';

/** Longest link label (sealed under the drive key; only the owner reads it), in UTF-16 units. */
export const MAX_LINK_LABEL_LENGTH = 200;
/** Longest request message (sealed under the request's `K`; the uploader reads it). */
export const MAX_REQUEST_MESSAGE_LENGTH = 2000;

const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

/** `iv(12) || AES-256-GCM(key, iv, aad, plaintext)`, base64. */
async function seal(
  key: CryptoKey,
  aad: Uint8Array<ArrayBuffer>,
  plainBytes: Uint8Array,
  ivBytes: Uint8Array,
) {
  if (ivBytes.length !== IV_LENGTH) throw new InvalidArgumentError(`iv must be ${IV_LENGTH} bytes`);
  const iv = new Uint8Array(ivBytes);
  const data = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: aad },
    key,
    new Uint8Array(plainBytes),
  );
  return bytesToBase64(concatBytes([iv, new Uint8Array(data)]));
}

/** Opens {@link seal}'s output; every failure is a {@link LinkKeyUnwrapError} naming `what`. */
async function open(
  key: CryptoKey,
  aad: Uint8Array<ArrayBuffer>,
  sealedB64: string,
  what: string,
): Promise<string> {
  try {
    const sealed = base64ToBytes(sealedB64);
    if (sealed.length < IV_LENGTH + TAG_LENGTH) throw new InvalidArgumentError('too short');
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: sealed.subarray(0, IV_LENGTH), additionalData: aad },
      key,
      sealed.subarray(IV_LENGTH),
    );
    return utf8Decoder.decode(plain);
  } catch (cause) {
    throw new LinkKeyUnwrapError(`the ${what} does not open with this key`, { cause });
  }
}

const random = (): Uint8Array => crypto.getRandomValues(new Uint8Array(IV_LENGTH));

/** AAD of an item's metadata under a link key: ASCII `coffer-v2/link-metadata/<linkId>/<fileId>`. */
export function linkMetadataAad(item: LinkItemPlace): Uint8Array<ArrayBuffer> {
  linkKeyAad(item);
  return utf8Bytes(`coffer-v2/link-metadata/${item.linkId}/${item.fileId}`);
}

/**
 * Seals a file's name and type for a link under its key `K` (UTF-8 JSON `{"name","contentType"?}`,
 * the same shape and limits as a node's metadata), bound to this link and file.
 */
export async function sealLinkMetadata(
  linkWrapKey: CryptoKey,
  item: LinkItemPlace,
  metadata: NodeMetadata,
  ivBytes: Uint8Array = random(),
): Promise<string> {
  if (checkedMetadata(metadata) === null) {
    throw new InvalidArgumentError('metadata needs a name of 1 to 1024 and a type of up to 255 characters');
  }
  const plain =
    metadata.contentType === undefined
      ? { name: metadata.name }
      : { name: metadata.name, contentType: metadata.contentType };
  return seal(linkWrapKey, linkMetadataAad(item), utf8Bytes(JSON.stringify(plain)), ivBytes);
}

/**
 * Opens an item's metadata served under a link. Strict, as node metadata.
 * @throws {LinkKeyUnwrapError} a wrong key, another link's or file's metadata, altered, or not of that shape.
 */
export async function openLinkMetadata(
  linkWrapKey: CryptoKey,
  item: LinkItemPlace,
  encryptedMetadataB64: string,
): Promise<NodeMetadata> {
  const text = await open(linkWrapKey, linkMetadataAad(item), encryptedMetadataB64, 'file metadata');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new LinkKeyUnwrapError('the file metadata is not JSON', { cause });
  }
  const metadata = isPlainObject(value) ? checkedMetadata(value) : null;
  if (metadata === null) throw new LinkKeyUnwrapError('the file metadata is not a name and a content type');
  return metadata;
}

/** Seals a link's label under the owner's drive key, AAD `coffer-v2/link-label/<linkId>`. */
export async function sealLinkLabel(
  driveKey: CryptoKey,
  linkId: string,
  label: string,
  ivBytes: Uint8Array = random(),
) {
  assertText(label, MAX_LINK_LABEL_LENGTH, 'label');
  return seal(driveKey, textAad('link-label', linkId), utf8Bytes(label), ivBytes);
}

/** Opens a link's label with the owner's drive key. @throws {LinkKeyUnwrapError} */
export async function openLinkLabel(driveKey: CryptoKey, linkId: string, sealedB64: string): Promise<string> {
  return open(driveKey, textAad('link-label', linkId), sealedB64, 'link label');
}

/** Seals a file request's message under the request's `K`, AAD `coffer-v2/request-message/<requestId>`. */
export async function sealRequestMessage(
  requestWrapKey: CryptoKey,
  requestId: string,
  message: string,
  ivBytes: Uint8Array = random(),
): Promise<string> {
  assertText(message, MAX_REQUEST_MESSAGE_LENGTH, 'message');
  return seal(requestWrapKey, textAad('request-message', requestId), utf8Bytes(message), ivBytes);
}

/** Opens a file request's message with the request's `K`. @throws {LinkKeyUnwrapError} */
export async function openRequestMessage(requestWrapKey: CryptoKey, requestId: string, sealedB64: string) {
  return open(requestWrapKey, textAad('request-message', requestId), sealedB64, 'request message');
}

function textAad(kind: 'link-label' | 'request-message', id: string): Uint8Array<ArrayBuffer> {
  if (!isLinkId(id)) throw new InvalidArgumentError('a link or request id is 22 base64url characters');
  return utf8Bytes(`coffer-v2/${kind}/${id}`);
}

function assertText(text: string, max: number, what: string): void {
  if (text.length > max) throw new InvalidArgumentError(`a ${what} is at most ${max} characters`);
}
