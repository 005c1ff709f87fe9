import { createHash } from 'node:crypto';
import type { ResignedShareGrant } from '@coffer/contracts';
import { CHUNK_SIZE, FileManifestV2Schema, ShareGrantSchema } from '@coffer/contracts';
import { Value } from 'typebox/value';
import type { FileRow, ShareRow } from '../../infra/db/schema.js';
import { parseEncryptionInfo } from './file-views.js';

/**
 * The server's side of a file manifest signed again (issue 31, docs/encryption.md section 9): the
 * server cannot check a signature (it does not load @coffer/crypto, and the owner's key is the
 * client's to trust), but it refuses what no honest client sends, so that a migration never leaves
 * the old manifest (with its clear name) or a grant over it behind, and never stores another file's
 * manifest. Every reader still verifies the signatures.
 */

/** Why a node change's manifest or grants were refused: a 400 (malformed, not this file's) or a 409. */
export interface ManifestRefusal {
  status: 400 | 409;
  message: string;
}

/** A node change as far as the manifest is concerned. */
export interface ManifestChange {
  encryptedMetadata: string;
  manifest?: string | undefined;
  shareGrants?: readonly ResignedShareGrant[] | undefined;
}

/** The stored file row's columns the checks read. */
export type ManifestFileRow = Pick<FileRow, 'id' | 'size' | 'encryption_info' | 'manifest' | 'node_id'>;

/** A share of the file as stored. */
export type ManifestShareRow = Pick<
  ShareRow,
  'recipient_email' | 'encrypted_file_key' | 'key_version' | 'share_grant'
>;

const sha256HexOfB64 = (base64: string): string =>
  createHash('sha256').update(Buffer.from(base64, 'base64')).digest('hex');

function parsedJson(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}

/** The `v` of a stored manifest (1 or 2), or null without one (or one that is not JSON). */
function storedVersion(json: string | null): unknown {
  if (json === null) return null;
  const parsed = parsedJson(json);
  return typeof parsed === 'object' && parsed !== null ? (parsed as { v?: unknown }).v : null;
}

const refused = (status: 400 | 409, message: string): ManifestRefusal => ({ status, message });

/**
 * Checks a node change's manifest against the stored file: a new manifest must be a version 2
 * manifest of this file (owner key, size, layout) naming the change's sealed metadata; without one,
 * a file signed with a version 1 manifest cannot get its first node (the clear name would stay in the
 * manifest), and a file whose version 2 manifest names other metadata cannot change it.
 */
export function manifestRefusal(file: ManifestFileRow, change: ManifestChange): ManifestRefusal | null {
  const metadataHash = sha256HexOfB64(change.encryptedMetadata);
  if (change.manifest === undefined) {
    if (change.shareGrants !== undefined)
      return refused(400, 'Share grants are signed again only with a new manifest');
    const version = storedVersion(file.manifest);
    if (file.node_id === null && version !== null && version !== 2) {
      return refused(
        409,
        "The file's manifest names it in clear: its first node carries the manifest signed again (version 2)",
      );
    }
    if (version === 2 && file.manifest !== null) {
      const stored = parsedJson(file.manifest) as { metadataSha256Hex?: unknown };
      if (stored.metadataSha256Hex !== metadataHash) {
        return refused(
          409,
          "The file's manifest signs its sealed metadata: new metadata carries a new manifest",
        );
      }
    }
    return null;
  }
  const manifest = parsedJson(change.manifest);
  if (!Value.Check(FileManifestV2Schema, manifest)) {
    return refused(400, 'The manifest must be a version 2 file manifest (v 2, sealed metadata, no name)');
  }
  const info = parseEncryptionInfo(file.encryption_info);
  if (info === null) return refused(400, 'The file has no encryption info to sign a manifest of');
  const chunkSize = info.chunkSize ?? CHUNK_SIZE;
  const differs = Object.entries({
    ownerKeyId: manifest.ownerKeyId === info.version,
    ownerWrappedKeySha256Hex: manifest.ownerWrappedKeySha256Hex === sha256HexOfB64(info.encryptedFileKey),
    size: manifest.size === file.size,
    chunkSize: manifest.chunkSize === chunkSize,
    chunkCount: manifest.chunkCount === Math.max(1, Math.ceil(file.size / chunkSize)),
    metadataSha256Hex: manifest.metadataSha256Hex === metadataHash,
  })
    .filter(([, same]) => !same)
    .map(([member]) => member);
  if (differs.length > 0) {
    return refused(400, `The manifest is not this file's (${differs.join(', ')})`);
  }
  return null;
}

/**
 * Checks the grants sent with a new manifest against the file's shares: exactly one for each share
 * that has a grant, each for this file, that recipient, their key id and their wrapped key.
 */
export function shareGrantsRefusal(
  fileId: string,
  shares: readonly ManifestShareRow[],
  grants: readonly ResignedShareGrant[],
): ManifestRefusal | null {
  const signed = shares.filter((share) => share.share_grant !== null);
  const byEmail = new Map(grants.map((grant) => [grant.email.toLowerCase(), grant.shareGrant]));
  if (byEmail.size !== grants.length) return refused(400, 'Each share may have only one grant');
  if (byEmail.size !== signed.length || signed.some((share) => !byEmail.has(share.recipient_email))) {
    return refused(
      409,
      "Every signed share of the file needs its grant signed again, and only those: the file's shares changed",
    );
  }
  for (const share of signed) {
    const grant = parsedJson(byEmail.get(share.recipient_email) ?? '');
    if (
      !Value.Check(ShareGrantSchema, grant) ||
      grant.fileId !== fileId ||
      grant.recipientEmail !== share.recipient_email ||
      grant.recipientKeyId !== share.key_version ||
      grant.wrappedKeySha256Hex !== sha256HexOfB64(share.encrypted_file_key) ||
      grant.manifestSha256Hex === ''
    ) {
      return refused(400, `The grant for ${share.recipient_email} is not this share's`);
    }
  }
  return null;
}
