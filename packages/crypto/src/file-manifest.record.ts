import { bytesToHex } from './bytes.util.js';
import { chunkCount, encryptedSize } from './content-size.math.js';
import { InvalidArgumentError } from './crypto.errors.js';
import { CHUNK_SIZE } from './format.constants.js';
import { SIGNED_LABELS } from './signed-message.encoding.js';
import { defineSignedRecord, type SignedRecordKind, type SignedStatement } from './signed-record.kind.js';
import { canonicalEmail, sha256, sha256HexOfB64, type SignatureCheck } from './signed-record.util.js';
import { comparedFields, verifySignedRecord } from './signed-record.verify.js';

/** The members both manifest versions share, around what each says of the file's name. */
interface FileManifestCommon {
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
  /** Plaintext size in bytes. */
  size: number;
  chunkSize: number;
  chunkCount: number;
  /** ISO 8601 UTC (`Date#toISOString`). */
  signedAt: string;
  signatureB64: string;
}

/**
 * A file manifest, version 1: what the owner signs at upload to identify a file and its layout, with
 * its name and type in clear. Travels as the JSON text `manifestJson` with the file's metadata,
 * members in this order. Written for files without sealed metadata (no drive key yet); read for
 * every file from before issue 31.
 */
export interface FileManifestV1 extends FileManifestCommon {
  v: 1;
  name: string;
  contentType: string;
}

/**
 * A file manifest, version 2 (issue 31): the same, but signing the SHA-256 of the file's sealed
 * metadata (`encryptedMetadata`) in place of its name and type, so no clear name is in it and a
 * reader who holds the file key (a share's recipient) has the owner's signature over what it opens.
 */
export interface FileManifestV2 extends FileManifestCommon {
  v: 2;
  /** Lowercase hex SHA-256 of the file's `encryptedMetadata` bytes (iv || ciphertext). */
  metadataSha256Hex: string;
}

/** Either version, as read from a file. */
export type FileManifest = FileManifestV1 | FileManifestV2;

/** What the uploader knows when it signs, whatever the version. */
interface ManifestLayoutFields {
  ownerEmail: string;
  ownerKeyId: string;
  /** The owner copy's `encryptedFileKey` (base64). */
  ownerEncryptedFileKeyB64: string;
  size: number;
  /** Default {@link CHUNK_SIZE}. */
  chunkSize?: number;
}

/** What a version 1 manifest is signed from. */
export interface FileManifestFields extends ManifestLayoutFields {
  name: string;
  contentType: string;
}

/** What a version 2 manifest is signed from. */
export interface FileManifestV2Fields extends ManifestLayoutFields {
  /** The file's `encryptedMetadata` (base64), sealed under its file key. */
  encryptedMetadataB64: string;
}

const FILE_MANIFEST_V1 = defineSignedRecord<FileManifestV1>({
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

const FILE_MANIFEST_V2 = defineSignedRecord<FileManifestV2>({
  type: 'file-manifest',
  version: 2,
  label: SIGNED_LABELS.fileManifestV2,
  name: 'file manifest',
  members: {
    ownerEmail: 'email',
    ownerKeyId: 'text',
    ownerWrappedKeySha256Hex: 'sha256Hex',
    metadataSha256Hex: 'sha256Hex',
    size: 'integer',
    chunkSize: 'integer',
    chunkCount: 'integer',
    signedAt: 'iso',
  },
  check: (manifest) => manifest.chunkSize > 0,
});

/**
 * Both versions as one kind, for reading: parse takes either (each strictly), the message follows
 * the parsed record's `v` (what it is given is always a parsed record).
 */
const FILE_MANIFEST: SignedRecordKind<FileManifest> = {
  name: 'file manifest',
  parse: (json) => FILE_MANIFEST_V2.parse(json) ?? FILE_MANIFEST_V1.parse(json),
  message: (manifest) => fileManifestMessage(manifest as FileManifest),
  sign: (statement, signingPrivateKey) =>
    'metadataSha256Hex' in statement
      ? FILE_MANIFEST_V2.sign(statement as SignedStatement<FileManifestV2>, signingPrivateKey)
      : FILE_MANIFEST_V1.sign(statement as SignedStatement<FileManifestV1>, signingPrivateKey),
};

/**
 * The signed bytes. Version 1: label `coffer-v1/file-manifest`, then ownerEmail, ownerKeyId (UTF-8),
 * the wrapped key's SHA-256 (32 bytes), name, contentType (UTF-8), size, chunkSize, chunkCount and
 * signedAt (u64 each; signedAt in milliseconds since 1970). Version 2: label
 * `coffer-v2/file-manifest`, then ownerEmail, ownerKeyId, the wrapped key's SHA-256, the sealed
 * metadata's SHA-256 (32 bytes), size, chunkSize, chunkCount and signedAt.
 */
export function fileManifestMessage(manifest: FileManifest): Uint8Array<ArrayBuffer> {
  return manifest.v === 2 ? FILE_MANIFEST_V2.message(manifest) : FILE_MANIFEST_V1.message(manifest);
}

/** Parses a manifest's JSON text strictly, version 1 or 2; null when it is neither. */
export const parseFileManifest = FILE_MANIFEST.parse;

async function layoutOf(fields: ManifestLayoutFields) {
  const ownerWrappedKeySha256Hex = await sha256HexOfB64(fields.ownerEncryptedFileKeyB64);
  if (ownerWrappedKeySha256Hex === null) throw new InvalidArgumentError('encryptedFileKey is not base64');
  const chunkSize = fields.chunkSize ?? CHUNK_SIZE;
  return {
    ownerEmail: fields.ownerEmail,
    ownerKeyId: fields.ownerKeyId,
    ownerWrappedKeySha256Hex,
    size: fields.size,
    chunkSize,
    chunkCount: chunkCount(fields.size, chunkSize),
  };
}

/**
 * Signs a version 1 manifest (name and type in clear) with the owner's signing key: for an upload
 * without sealed metadata. Returns its JSON text.
 */
export async function signFileManifest(
  fields: FileManifestFields,
  signingPrivateKey: CryptoKey,
  signedAt: Date = new Date(),
): Promise<string> {
  const { ownerEmail, ownerKeyId, ownerWrappedKeySha256Hex, size, chunkSize, chunkCount } =
    await layoutOf(fields);
  const statement: SignedStatement<FileManifestV1> = {
    ownerEmail,
    ownerKeyId,
    ownerWrappedKeySha256Hex,
    name: fields.name,
    contentType: fields.contentType,
    size,
    chunkSize,
    chunkCount,
    signedAt: signedAt.toISOString(),
  };
  return FILE_MANIFEST_V1.sign(statement, signingPrivateKey);
}

/**
 * Signs a version 2 manifest (the sealed metadata's hash, no name) with the owner's signing key: at
 * an upload with sealed metadata, and when the owner's browser migrates a file's clear name.
 * Returns its JSON text.
 */
export async function signFileManifestV2(
  fields: FileManifestV2Fields,
  signingPrivateKey: CryptoKey,
  signedAt: Date = new Date(),
): Promise<string> {
  const layout = await layoutOf(fields);
  const metadataSha256Hex = await sha256HexOfB64(fields.encryptedMetadataB64);
  if (metadataSha256Hex === null) throw new InvalidArgumentError('encryptedMetadata is not base64');
  const statement: SignedStatement<FileManifestV2> = {
    ownerEmail: layout.ownerEmail,
    ownerKeyId: layout.ownerKeyId,
    ownerWrappedKeySha256Hex: layout.ownerWrappedKeySha256Hex,
    metadataSha256Hex,
    size: layout.size,
    chunkSize: layout.chunkSize,
    chunkCount: layout.chunkCount,
    signedAt: signedAt.toISOString(),
  };
  return FILE_MANIFEST_V2.sign(statement, signingPrivateKey);
}

/** Lowercase hex SHA-256 of a manifest's signed bytes: how a share grant or node record names it. */
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
  /** The served name and type: what a version 1 manifest signs (a version 2 one signs neither). */
  name: string;
  contentType: string;
  /**
   * The served `encryptedMetadata` (base64), what a version 2 manifest signs the hash of. Leave it
   * out only where the reader is not served the file's own sealed metadata (a link's page, which
   * reads the metadata sealed under the link's key); a file that has none is checked with ''.
   */
  encryptedMetadataB64?: string;
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
 * Verifies a served manifest (version 1 or 2) with the owner's signing public key (the owner's own,
 * verified at unlock; or a contact's, matched against their pin), then compares it with the served
 * metadata: version 1 its name and type, version 2 the hash of its sealed metadata. A missing
 * manifest is `unsigned` (files from before signing keys).
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
  const whatItNames: Record<string, boolean> =
    manifest.v === 2
      ? {
          metadataSha256Hex:
            served.encryptedMetadataB64 === undefined ||
            manifest.metadataSha256Hex === (await sha256HexOfB64(served.encryptedMetadataB64)),
        }
      : { name: manifest.name === served.name, contentType: manifest.contentType === served.contentType };
  return comparedFields({
    ownerEmail: manifest.ownerEmail === canonicalEmail(served.ownerEmail),
    ...whatItNames,
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
