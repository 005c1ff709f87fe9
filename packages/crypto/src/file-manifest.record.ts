import { bytesToHex } from './bytes.util.js';
import { chunkCount, encryptedSize } from './content-size.math.js';
import { InvalidArgumentError } from './crypto.errors.js';
import { CHUNK_SIZE } from './format.constants.js';
import { SIGNED_LABELS } from './signed-message.encoding.js';
import { defineSignedRecord, type SignedStatement } from './signed-record.kind.js';
import { canonicalEmail, sha256, sha256HexOfB64, type SignatureCheck } from './signed-record.util.js';
import { comparedFields, verifySignedRecord } from './signed-record.verify.js';

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

const FILE_MANIFEST = defineSignedRecord<FileManifest>({
  type: 'file-manifest',
  label: SIGNED_LABELS.fileManifest,
  name: 'file manifest',
  members: {
    ownerEmail: 'email',
    ownerKeyId: 'text',
    ownerWrappedKeySha256Hex: 'sha256Hex',
    name: 'text',
    contentType: 'text',
    size: 'integer',
    chunkSize: 'integer',
    chunkCount: 'integer',
    signedAt: 'iso',
  },
  check: (manifest) => manifest.chunkSize > 0,
});

/**
 * The signed bytes: label `coffer-v1/file-manifest`, then ownerEmail, ownerKeyId (UTF-8), the
 * wrapped key's SHA-256 (32 bytes), name, contentType (UTF-8), size, chunkSize, chunkCount and
 * signedAt (u64 each; signedAt in milliseconds since 1970).
 */
export const fileManifestMessage = FILE_MANIFEST.message;

/** Parses a manifest's JSON text strictly; null when it is not one. */
export const parseFileManifest = FILE_MANIFEST.parse;

/** Signs a file manifest at upload with the owner's signing key. Returns its JSON text. */
export async function signFileManifest(
  fields: FileManifestFields,
  signingPrivateKey: CryptoKey,
  signedAt: Date = new Date(),
): Promise<string> {
  const ownerWrappedKeySha256Hex = await sha256HexOfB64(fields.ownerEncryptedFileKeyB64);
  if (ownerWrappedKeySha256Hex === null) throw new InvalidArgumentError('encryptedFileKey is not base64');
  const chunkSize = fields.chunkSize ?? CHUNK_SIZE;
  const statement: SignedStatement<FileManifest> = {
    ownerEmail: fields.ownerEmail,
    ownerKeyId: fields.ownerKeyId,
    ownerWrappedKeySha256Hex,
    name: fields.name,
    contentType: fields.contentType,
    size: fields.size,
    chunkSize,
    chunkCount: chunkCount(fields.size, chunkSize),
    signedAt: signedAt.toISOString(),
  };
  return FILE_MANIFEST.sign(statement, signingPrivateKey);
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
  return comparedFields({
    ownerEmail: manifest.ownerEmail === canonicalEmail(served.ownerEmail),
    name: manifest.name === served.name,
    contentType: manifest.contentType === served.contentType,
    size: manifest.size === served.size,
    chunkSize: manifest.chunkSize === (served.chunkSize ?? CHUNK_SIZE),
    chunkCount: manifest.chunkCount === chunkCount(manifest.size, manifest.chunkSize),
    storedSize:
      served.storedSize === undefined ||
      served.storedSize === encryptedSize(manifest.size, manifest.chunkSize),
    ownerKeyId: served.ownerKeyId === undefined || manifest.ownerKeyId === served.ownerKeyId,
    ownerWrappedKeySha256Hex:
      served.ownerEncryptedFileKeyB64 === undefined ||
      manifest.ownerWrappedKeySha256Hex === (await sha256HexOfB64(served.ownerEncryptedFileKeyB64)),
  });
}
