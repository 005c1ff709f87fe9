import { InvalidArgumentError } from './crypto.errors.js';
import {
  fileManifestSha256Hex,
  parseFileManifest,
  verifyFileManifest,
  type ServedFileFields,
} from './file-manifest.record.js';
import { SIGNED_LABELS } from './signed-message.encoding.js';
import { defineSignedRecord, type SignedStatement } from './signed-record.kind.js';
import { canonicalEmail, sha256HexOfB64, type SignatureCheck } from './signed-record.util.js';
import { comparedFields, verifySignedRecord } from './signed-record.verify.js';

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

const SHARE_GRANT = defineSignedRecord<ShareGrant>({
  type: 'share-grant',
  label: SIGNED_LABELS.shareGrant,
  name: 'share grant',
  members: {
    fileId: 'text',
    ownerEmail: 'email',
    recipientEmail: 'email',
    recipientKeyId: 'text',
    recipientKeySha256Hex: 'sha256Hex',
    wrappedKeySha256Hex: 'sha256Hex',
    manifestSha256Hex: 'optionalSha256Hex',
    signedAt: 'iso',
  },
});

/**
 * The signed bytes: label `coffer-v1/share-grant`, then fileId, ownerEmail, recipientEmail,
 * recipientKeyId (UTF-8), the recipient key's SHA-256 and the wrapped key's SHA-256 (32 bytes
 * each), the manifest's SHA-256 (32 bytes, or 0 bytes without a manifest) and signedAt (u64 ms).
 */
export const shareGrantMessage = SHARE_GRANT.message;

/** Parses a grant's JSON text strictly; null when it is not one. */
export const parseShareGrant = SHARE_GRANT.parse;

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
  const statement: SignedStatement<ShareGrant> = {
    fileId: fields.fileId,
    ownerEmail: fields.ownerEmail,
    recipientEmail: fields.recipientEmail,
    recipientKeyId: fields.recipientKeyId,
    recipientKeySha256Hex,
    wrappedKeySha256Hex,
    manifestSha256Hex: await manifestHash(fields.manifestJson),
    signedAt: signedAt.toISOString(),
  };
  return SHARE_GRANT.sign(statement, signingPrivateKey);
}

/**
 * Signs a share grant again over the file's new manifest (issue 31: the migration of a clear name
 * re-signs the file's manifest as version 2, and every grant names its manifest's hash). The owner
 * has no recipient's key or wrapped key to sign from, so the grant's other members are taken from
 * the old grant, which must verify with the owner's own signing key, be for this file and name
 * exactly the old manifest: a grant the server forged or swapped is refused, never signed again.
 */
export async function resignShareGrant(
  oldGrantJson: string,
  file: { fileId: string; oldManifestJson: string | undefined; newManifestJson: string },
  ownSigningPublicKeyB64: string,
  signingPrivateKey: CryptoKey,
  signedAt: Date = new Date(),
): Promise<string> {
  const verified = await verifySignedRecord(
    oldGrantJson,
    SHARE_GRANT,
    ownSigningPublicKeyB64,
    'my signing key',
  );
  const oldManifestHash = await manifestHash(file.oldManifestJson).catch(() => null);
  if (
    !verified.ok ||
    verified.record.fileId !== file.fileId ||
    verified.record.manifestSha256Hex !== oldManifestHash
  ) {
    throw new InvalidArgumentError('the share grant to sign again is not one I signed for this file');
  }
  const old = verified.record;
  const statement: SignedStatement<ShareGrant> = {
    fileId: old.fileId,
    ownerEmail: old.ownerEmail,
    recipientEmail: old.recipientEmail,
    recipientKeyId: old.recipientKeyId,
    recipientKeySha256Hex: old.recipientKeySha256Hex,
    wrappedKeySha256Hex: old.wrappedKeySha256Hex,
    manifestSha256Hex: await manifestHash(file.newManifestJson),
    signedAt: signedAt.toISOString(),
  };
  return SHARE_GRANT.sign(statement, signingPrivateKey);
}

/** '' without a manifest; the manifest's hash; null for a manifest that is not one. */
async function manifestHash(manifestJson: string | undefined): Promise<string> {
  if (manifestJson === undefined) return '';
  const manifest = parseFileManifest(manifestJson);
  if (manifest === null) throw new InvalidArgumentError('the file manifest is malformed');
  return fileManifestSha256Hex(manifest);
}

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
  return comparedFields({
    fileId: grant.fileId === served.fileId,
    ownerEmail: grant.ownerEmail === canonicalEmail(served.ownerEmail),
    recipientEmail: grant.recipientEmail === canonicalEmail(served.recipientEmail),
    recipientKeyId: grant.recipientKeyId === served.recipientKeyId,
    recipientKeySha256Hex:
      grant.recipientKeySha256Hex === (await sha256HexOfB64(served.recipientPublicKeyB64)),
    wrappedKeySha256Hex: grant.wrappedKeySha256Hex === (await sha256HexOfB64(served.encryptedFileKeyB64)),
    manifestSha256Hex:
      grant.manifestSha256Hex === (await manifestHash(served.manifestJson).catch(() => null)),
  });
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
