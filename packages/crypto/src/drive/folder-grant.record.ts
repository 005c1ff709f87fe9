import { InvalidArgumentError } from '../crypto.errors.js';
import { SIGNED_LABELS } from '../signed-message.encoding.js';
import { defineSignedRecord, type SignedStatement } from '../signed-record.kind.js';
import { canonicalEmail, sha256HexOfB64, type SignatureCheck } from '../signed-record.util.js';
import { comparedFields, verifySignedRecord } from '../signed-record.verify.js';
import { isNodeId } from './node-place.js';

/**
 * A folder grant: what the owner signs when sharing a folder with a contact, about the folder key
 * the recipient receives. Travels as the JSON text `grantJson` with the folder share, members in
 * this order.
 */
export interface FolderGrant {
  v: 1;
  type: 'folder-grant';
  folderNodeId: string;
  /** Canonical (lower-case) emails. */
  ownerEmail: string;
  recipientEmail: string;
  /** The recipient's key id (`keyVersion` of the share). */
  recipientKeyId: string;
  /** Lowercase hex SHA-256 of the recipient's RSA SPKI. */
  recipientKeySha256Hex: string;
  /** Lowercase hex SHA-256 of the folder key wrapped to the recipient (the bytes of `encryptedFolderKey`). */
  wrappedKeySha256Hex: string;
  /** ISO 8601 UTC (`Date#toISOString`). */
  signedAt: string;
  signatureB64: string;
}

/** What the sharer knows when it signs; also what a recipient compares a grant with. */
export interface FolderGrantFields {
  folderNodeId: string;
  ownerEmail: string;
  recipientEmail: string;
  recipientKeyId: string;
  /** The recipient's `publicKey` (base64 SPKI) the folder key was wrapped to. */
  recipientPublicKeyB64: string;
  /** The recipient's `encryptedFolderKey` (base64). */
  encryptedFolderKeyB64: string;
}

const FOLDER_GRANT = defineSignedRecord<FolderGrant>({
  type: 'folder-grant',
  label: SIGNED_LABELS.folderGrant,
  name: 'folder grant',
  members: {
    folderNodeId: 'text',
    ownerEmail: 'email',
    recipientEmail: 'email',
    recipientKeyId: 'text',
    recipientKeySha256Hex: 'sha256Hex',
    wrappedKeySha256Hex: 'sha256Hex',
    signedAt: 'iso',
  },
  check: (grant) => isNodeId(grant.folderNodeId),
});

/**
 * The signed bytes: label `coffer-v2/folder-grant`, then folderNodeId, ownerEmail, recipientEmail,
 * recipientKeyId (UTF-8), the recipient key's and the wrapped key's SHA-256 (32 bytes each) and
 * signedAt (u64 ms).
 */
export const folderGrantMessage = FOLDER_GRANT.message;

/** Parses a folder grant's JSON text strictly; null when it is not one. */
export const parseFolderGrant = FOLDER_GRANT.parse;

/** Signs a folder grant with the owner's signing key, at share time. Returns its JSON text. */
export async function signFolderGrant(
  fields: FolderGrantFields,
  signingPrivateKey: CryptoKey,
  signedAt: Date = new Date(),
): Promise<string> {
  const recipientKeySha256Hex = await sha256HexOfB64(fields.recipientPublicKeyB64);
  const wrappedKeySha256Hex = await sha256HexOfB64(fields.encryptedFolderKeyB64);
  if (recipientKeySha256Hex === null || wrappedKeySha256Hex === null) {
    throw new InvalidArgumentError('the recipient key and the wrapped key must be base64');
  }
  if (!isNodeId(fields.folderNodeId))
    throw new InvalidArgumentError('folderNodeId must be a lower-case UUID');
  const statement: SignedStatement<FolderGrant> = {
    folderNodeId: fields.folderNodeId,
    ownerEmail: fields.ownerEmail,
    recipientEmail: fields.recipientEmail,
    recipientKeyId: fields.recipientKeyId,
    recipientKeySha256Hex,
    wrappedKeySha256Hex,
    signedAt: signedAt.toISOString(),
  };
  return FOLDER_GRANT.sign(statement, signingPrivateKey);
}

/**
 * Verifies a served folder grant with the owner's signing public key (matched against their pin),
 * then compares it with what is served: this folder, this owner, me as recipient with my own key
 * (from my session, not the server), and exactly this wrapped key. A missing grant is `unsigned`.
 */
export async function verifyFolderGrant(
  grantJson: string | undefined,
  served: FolderGrantFields,
  ownerSigningPublicKeyB64: string,
): Promise<SignatureCheck> {
  const verified = await verifySignedRecord(
    grantJson,
    FOLDER_GRANT,
    ownerSigningPublicKeyB64,
    "the owner's signing key",
  );
  if (!verified.ok) return verified.check;
  const grant = verified.record;
  return comparedFields({
    folderNodeId: grant.folderNodeId === served.folderNodeId,
    ownerEmail: grant.ownerEmail === canonicalEmail(served.ownerEmail),
    recipientEmail: grant.recipientEmail === canonicalEmail(served.recipientEmail),
    recipientKeyId: grant.recipientKeyId === served.recipientKeyId,
    recipientKeySha256Hex:
      grant.recipientKeySha256Hex === (await sha256HexOfB64(served.recipientPublicKeyB64)),
    wrappedKeySha256Hex: grant.wrappedKeySha256Hex === (await sha256HexOfB64(served.encryptedFolderKeyB64)),
  });
}
