import { bytesToBase64 } from './base64.codec.js';
import { bytesToHex, hexToBytes } from './bytes.util.js';
import { chunkCount, encryptedSize } from './content-size.math.js';
import { InvalidArgumentError } from './crypto.errors.js';
import { CHUNK_SIZE } from './format.constants.js';
import { encodeSignedMessage, SIGNED_LABELS } from './signed-message.encoding.js';
import {
  canonicalEmail,
  FieldReader,
  parseObject,
  sha256,
  sha256HexOfB64,
  type SignatureCheck,
} from './signed-record.util.js';
import { signBytes } from './signing-key.pair.js';
import { comparedFields, type SignedRecordKind, verifySignedRecord } from './signed-record.verify.js';

/**
 * A file manifest: what the owner signs at upload to identify a file and its layout. Travels as
 * the JSON text `manifestJson` with the file's metadata, members in this order.
 */
export interface FileManifest {
  v: 1;
  type: 'file-manifest';
  /** Canonical (lower-case) email of the owner. */
  ownerEmail: string;
  /** `encryptionInfo.version`: the owner's key id the file key is wrapped to. */
  ownerKeyId: string;
  /**
   * Lowercase hex SHA-256 of the owner's wrapped file key (the bytes of `encryptedFileKey`).
   * RSA-OAEP is randomized, so this is unique per file: it is the file's identity in the manifest
   * (the server's file id does not exist yet when a direct upload is signed).
   */
  ownerWrappedKeySha256Hex: string;
  name: string;
  contentType: string;
  /** Plaintext size in bytes. */
  size: number;
  chunkSize: number;
  chunkCount: number;
  /** ISO 8601 UTC (`Date#toISOString`). */
  signedAt: string;
  signatureB64: string;
}

const MEMBERS = [
  'v',
  'type',
  'ownerEmail',
  'ownerKeyId',
  'ownerWrappedKeySha256Hex',
  'name',
  'contentType',
  'size',
  'chunkSize',
  'chunkCount',
  'signedAt',
  'signatureB64',
] as const;

/** What the uploader knows when it signs. */
export interface FileManifestFields {
  ownerEmail: string;
  ownerKeyId: string;
  /** The owner copy's `encryptedFileKey` (base64). */
  ownerEncryptedFileKeyB64: string;
  name: string;
  contentType: string;
  size: number;
  /** Default {@link CHUNK_SIZE}. */
  chunkSize?: number;
}

/**
 * The signed bytes: label `coffer-v1/file-manifest`, then ownerEmail, ownerKeyId (UTF-8), the
 * wrapped key's SHA-256 (32 bytes), name, contentType (UTF-8), size, chunkSize, chunkCount and
 * signedAt (u64 each; signedAt in milliseconds since 1970).
 */
export function fileManifestMessage(
  manifest: Omit<FileManifest, 'signatureB64'> & { signatureB64?: string },
): Uint8Array<ArrayBuffer> {
  return encodeSignedMessage(SIGNED_LABELS.fileManifest, [
    manifest.ownerEmail,
    manifest.ownerKeyId,
    hexToBytes(manifest.ownerWrappedKeySha256Hex),
    manifest.name,
    manifest.contentType,
    manifest.size,
    manifest.chunkSize,
    manifest.chunkCount,
    Date.parse(manifest.signedAt),
  ]);
}

/** Signs a file manifest at upload with the owner's signing key. Returns its JSON text. */
export async function signFileManifest(
  fields: FileManifestFields,
  signingPrivateKey: CryptoKey,
  signedAt: Date = new Date(),
): Promise<string> {
  const ownerWrappedKeySha256Hex = await sha256HexOfB64(fields.ownerEncryptedFileKeyB64);
  if (ownerWrappedKeySha256Hex === null) throw new InvalidArgumentError('encryptedFileKey is not base64');
  const chunkSize = fields.chunkSize ?? CHUNK_SIZE;
  const unsigned: Omit<FileManifest, 'signatureB64'> = {
    v: 1,
    type: 'file-manifest',
    ownerEmail: canonicalEmail(fields.ownerEmail),
    ownerKeyId: fields.ownerKeyId,
    ownerWrappedKeySha256Hex,
    name: fields.name,
    contentType: fields.contentType,
    size: fields.size,
    chunkSize,
    chunkCount: chunkCount(fields.size, chunkSize),
    signedAt: signedAt.toISOString(),
  };
  const signature = await signBytes(signingPrivateKey, fileManifestMessage(unsigned));
  const manifest: FileManifest = { ...unsigned, signatureB64: bytesToBase64(signature) };
  return JSON.stringify(manifest);
}

/** Parses a manifest's JSON text strictly; null when it is not one. */
export function parseFileManifest(manifestJson: string): FileManifest | null {
  const object = parseObject(manifestJson);
  if (object === null) return null;
  const read = new FieldReader(object);
  read.onlyMembers(MEMBERS);
  const manifest: FileManifest = {
    v: 1,
    type: 'file-manifest',
    ownerEmail: read.text('ownerEmail'),
    ownerKeyId: read.text('ownerKeyId'),
    ownerWrappedKeySha256Hex: read.sha256Hex('ownerWrappedKeySha256Hex'),
    name: read.text('name'),
    contentType: read.text('contentType'),
    size: read.integer('size'),
    chunkSize: read.integer('chunkSize'),
    chunkCount: read.integer('chunkCount'),
    signedAt: read.text('signedAt'),
    signatureB64: read.text('signatureB64'),
  };
  read.iso('signedAt');
  read.base64('signatureB64');
  const valid =
    read.ok &&
    object.v === 1 &&
    object.type === 'file-manifest' &&
    manifest.chunkSize > 0 &&
    manifest.ownerEmail === canonicalEmail(manifest.ownerEmail);
  return valid ? manifest : null;
}

/** Lowercase hex SHA-256 of a manifest's signed bytes: how a share grant names its manifest. */
export async function fileManifestSha256Hex(manifest: FileManifest): Promise<string> {
  return bytesToHex(await sha256(fileManifestMessage(manifest)));
}

/**
 * What the server serves with a file, to compare with its manifest. Leave out what the reader
 * cannot see: a recipient knows neither the owner's key id nor the owner's wrapped key.
 */
export interface ServedFileFields {
  /** The file's owner: the signed-in user for My Files, the share's `owner` for a recipient. */
  ownerEmail: string;
  name: string;
  contentType: string;
  size: number;
  /** `encryptionInfo.chunkSize` (default {@link CHUNK_SIZE}). */
  chunkSize?: number;
  /** Length of the stored object, if known before downloading (e.g. a listed or Content-Length size). */
  storedSize?: number;
  /** Owner only: `encryptionInfo.version`. */
  ownerKeyId?: string;
  /** Owner only: `encryptionInfo.encryptedFileKey`. */
  ownerEncryptedFileKeyB64?: string;
}

const FILE_MANIFEST: SignedRecordKind<FileManifest> = {
  name: 'file manifest',
  parse: parseFileManifest,
  message: fileManifestMessage,
};

/**
 * Verifies a served manifest with the owner's signing public key (the owner's own, verified at
 * unlock; or a contact's, matched against their pin), then compares it with the served metadata.
 * A missing manifest is `unsigned` (files from before signing keys).
 */
export async function verifyFileManifest(
  manifestJson: string | undefined,
  served: ServedFileFields,
  ownerSigningPublicKeyB64: string,
): Promise<SignatureCheck> {
  const verified = await verifySignedRecord(
    manifestJson,
    FILE_MANIFEST,
    ownerSigningPublicKeyB64,
    "the owner's signing key",
  );
  if (!verified.ok) return verified.check;
  const manifest = verified.record;
  const fields: string[] = [];
  if (manifest.ownerEmail !== canonicalEmail(served.ownerEmail)) fields.push('ownerEmail');
  if (manifest.name !== served.name) fields.push('name');
  if (manifest.contentType !== served.contentType) fields.push('contentType');
  if (manifest.size !== served.size) fields.push('size');
  if (manifest.chunkSize !== (served.chunkSize ?? CHUNK_SIZE)) fields.push('chunkSize');
  if (manifest.chunkCount !== chunkCount(manifest.size, manifest.chunkSize)) fields.push('chunkCount');
  if (
    served.storedSize !== undefined &&
    served.storedSize !== encryptedSize(manifest.size, manifest.chunkSize)
  ) {
    fields.push('storedSize');
  }
  if (served.ownerKeyId !== undefined && manifest.ownerKeyId !== served.ownerKeyId) fields.push('ownerKeyId');
  if (
    served.ownerEncryptedFileKeyB64 !== undefined &&
    manifest.ownerWrappedKeySha256Hex !== (await sha256HexOfB64(served.ownerEncryptedFileKeyB64))
  ) {
    fields.push('ownerWrappedKeySha256Hex');
  }
  return comparedFields(fields);
}
