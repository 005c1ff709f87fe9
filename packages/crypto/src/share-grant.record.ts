import { bytesToBase64 } from './base64.codec.js';
import { hexToBytes } from './bytes.util.js';
import { InvalidArgumentError } from './crypto.errors.js';
import {
  fileManifestSha256Hex,
  parseFileManifest,
  verifyFileManifest,
  type ServedFileFields,
} from './file-manifest.record.js';
import { encodeSignedMessage, SIGNED_LABELS } from './signed-message.encoding.js';
import {
  canonicalEmail,
  FieldReader,
  parseObject,
  sha256HexOfB64,
  type SignatureCheck,
} from './signed-record.util.js';
import { signBytes } from './signing-key.pair.js';
import { comparedFields, type SignedRecordKind, verifySignedRecord } from './signed-record.verify.js';

/**
 * A share grant: what the owner signs when sharing a file, about what the recipient receives.
 * Travels as the JSON text `shareGrantJson` with the share, members in this order.
 */
export interface ShareGrant {
  v: 1;
  type: 'share-grant';
  /** The server's id of the shared file. */
  fileId: string;
  /** Canonical (lower-case) emails. */
  ownerEmail: string;
  recipientEmail: string;
  /** The recipient's key id (`keyVersion` of the share). */
  recipientKeyId: string;
  /** Lowercase hex SHA-256 of the recipient's RSA SPKI (the bytes behind their safety number). */
  recipientKeySha256Hex: string;
  /** Lowercase hex SHA-256 of the recipient's wrapped file key (the bytes of `encryptedFileKey`). */
  wrappedKeySha256Hex: string;
  /** Lowercase hex SHA-256 of the file manifest's signed bytes; '' for a file without a manifest. */
  manifestSha256Hex: string;
  /** ISO 8601 UTC (`Date#toISOString`). */
  signedAt: string;
  signatureB64: string;
}

const MEMBERS = [
  'v',
  'type',
  'fileId',
  'ownerEmail',
  'recipientEmail',
  'recipientKeyId',
  'recipientKeySha256Hex',
  'wrappedKeySha256Hex',
  'manifestSha256Hex',
  'signedAt',
  'signatureB64',
] as const;

/** What the sharer knows when it signs; also what a recipient compares a grant with. */
export interface ShareGrantFields {
  fileId: string;
  ownerEmail: string;
  recipientEmail: string;
  recipientKeyId: string;
  /** The recipient's `publicKey` (base64 SPKI) the file key was wrapped to. */
  recipientPublicKeyB64: string;
  /** The recipient's `encryptedFileKey` (base64). */
  encryptedFileKeyB64: string;
  /** The file's `manifestJson`, if it has one. */
  manifestJson: string | undefined;
}

/**
 * The signed bytes: label `coffer-v1/share-grant`, then fileId, ownerEmail, recipientEmail,
 * recipientKeyId (UTF-8), the recipient key's SHA-256 and the wrapped key's SHA-256 (32 bytes
 * each), the manifest's SHA-256 (32 bytes, or 0 bytes without a manifest) and signedAt (u64 ms).
 */
export function shareGrantMessage(grant: Omit<ShareGrant, 'signatureB64'>): Uint8Array<ArrayBuffer> {
  return encodeSignedMessage(SIGNED_LABELS.shareGrant, [
    grant.fileId,
    grant.ownerEmail,
    grant.recipientEmail,
    grant.recipientKeyId,
    hexToBytes(grant.recipientKeySha256Hex),
    hexToBytes(grant.wrappedKeySha256Hex),
    hexToBytes(grant.manifestSha256Hex),
    Date.parse(grant.signedAt),
  ]);
}

/** Signs a share grant with the owner's signing key, at share time. Returns its JSON text. */
export async function signShareGrant(
  fields: ShareGrantFields,
  signingPrivateKey: CryptoKey,
  signedAt: Date = new Date(),
): Promise<string> {
  const recipientKeySha256Hex = await sha256HexOfB64(fields.recipientPublicKeyB64);
  const wrappedKeySha256Hex = await sha256HexOfB64(fields.encryptedFileKeyB64);
  if (recipientKeySha256Hex === null || wrappedKeySha256Hex === null) {
    throw new InvalidArgumentError('the recipient key and the wrapped key must be base64');
  }
  const unsigned: Omit<ShareGrant, 'signatureB64'> = {
    v: 1,
    type: 'share-grant',
    fileId: fields.fileId,
    ownerEmail: canonicalEmail(fields.ownerEmail),
    recipientEmail: canonicalEmail(fields.recipientEmail),
    recipientKeyId: fields.recipientKeyId,
    recipientKeySha256Hex,
    wrappedKeySha256Hex,
    manifestSha256Hex: await manifestHash(fields.manifestJson),
    signedAt: signedAt.toISOString(),
  };
  const signature = await signBytes(signingPrivateKey, shareGrantMessage(unsigned));
  const grant: ShareGrant = { ...unsigned, signatureB64: bytesToBase64(signature) };
  return JSON.stringify(grant);
}

/** '' without a manifest; the manifest's hash; null for a manifest that is not one. */
async function manifestHash(manifestJson: string | undefined): Promise<string> {
  if (manifestJson === undefined) return '';
  const manifest = parseFileManifest(manifestJson);
  if (manifest === null) throw new InvalidArgumentError('the file manifest is malformed');
  return fileManifestSha256Hex(manifest);
}

/** Parses a grant's JSON text strictly; null when it is not one. */
export function parseShareGrant(shareGrantJson: string): ShareGrant | null {
  const object = parseObject(shareGrantJson);
  if (object === null) return null;
  const read = new FieldReader(object);
  read.onlyMembers(MEMBERS);
  const grant: ShareGrant = {
    v: 1,
    type: 'share-grant',
    fileId: read.text('fileId'),
    ownerEmail: read.text('ownerEmail'),
    recipientEmail: read.text('recipientEmail'),
    recipientKeyId: read.text('recipientKeyId'),
    recipientKeySha256Hex: read.sha256Hex('recipientKeySha256Hex'),
    wrappedKeySha256Hex: read.sha256Hex('wrappedKeySha256Hex'),
    manifestSha256Hex: read.sha256Hex('manifestSha256Hex', true),
    signedAt: read.text('signedAt'),
    signatureB64: read.text('signatureB64'),
  };
  read.iso('signedAt');
  read.base64('signatureB64');
  const valid =
    read.ok &&
    object.v === 1 &&
    object.type === 'share-grant' &&
    grant.ownerEmail === canonicalEmail(grant.ownerEmail) &&
    grant.recipientEmail === canonicalEmail(grant.recipientEmail);
  return valid ? grant : null;
}

const SHARE_GRANT: SignedRecordKind<ShareGrant> = {
  name: 'share grant',
  parse: parseShareGrant,
  message: shareGrantMessage,
};

/**
 * Verifies a served share grant with the owner's signing public key, then compares it with what the
 * server serves: this file id, this owner, me as recipient with my key, and exactly this wrapped key
 * and manifest. A missing grant is `unsigned` (shares from before signing keys).
 */
export async function verifyShareGrant(
  shareGrantJson: string | undefined,
  served: ShareGrantFields,
  ownerSigningPublicKeyB64: string,
): Promise<SignatureCheck> {
  const verified = await verifySignedRecord(
    shareGrantJson,
    SHARE_GRANT,
    ownerSigningPublicKeyB64,
    "the owner's signing key",
  );
  if (!verified.ok) return verified.check;
  const grant = verified.record;
  const fields: string[] = [];
  if (grant.fileId !== served.fileId) fields.push('fileId');
  if (grant.ownerEmail !== canonicalEmail(served.ownerEmail)) fields.push('ownerEmail');
  if (grant.recipientEmail !== canonicalEmail(served.recipientEmail)) fields.push('recipientEmail');
  if (grant.recipientKeyId !== served.recipientKeyId) fields.push('recipientKeyId');
  if (grant.recipientKeySha256Hex !== (await sha256HexOfB64(served.recipientPublicKeyB64))) {
    fields.push('recipientKeySha256Hex');
  }
  if (grant.wrappedKeySha256Hex !== (await sha256HexOfB64(served.encryptedFileKeyB64))) {
    fields.push('wrappedKeySha256Hex');
  }
  const servedManifest = await manifestHash(served.manifestJson).catch(() => null);
  if (grant.manifestSha256Hex !== servedManifest) fields.push('manifestSha256Hex');
  return comparedFields(fields);
}

/** Everything a recipient's app has about a received file, to check before offering it. */
export interface ReceivedShare extends ShareGrantFields {
  shareGrantJson: string | undefined;
  /** The file's metadata as served to the recipient (name, type, size, chunk size). */
  file: Omit<ServedFileFields, 'ownerEmail' | 'ownerKeyId' | 'ownerEncryptedFileKeyB64'>;
}

/**
 * The recipient's whole check of a share: the grant (see {@link verifyShareGrant}) and, when the
 * grant names a manifest, the manifest against the served name, type and size. The grant decides
 * `unsigned`; a signed grant with an invalid or mismatching manifest is reported as such.
 */
export async function verifyReceivedShare(
  share: ReceivedShare,
  ownerSigningPublicKeyB64: string,
): Promise<SignatureCheck> {
  const grantCheck = await verifyShareGrant(share.shareGrantJson, share, ownerSigningPublicKeyB64);
  if (grantCheck.status !== 'valid' || share.manifestJson === undefined) return grantCheck;
  return verifyFileManifest(
    share.manifestJson,
    { ...share.file, ownerEmail: share.ownerEmail },
    ownerSigningPublicKeyB64,
  );
}
