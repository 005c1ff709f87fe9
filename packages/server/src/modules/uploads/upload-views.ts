import type { FileNode, UploadItem } from '@coffer/contracts';
import { fromDbBool } from '../../infra/db/values.js';
import { parseEncryptionInfo } from '../files/file-views.js';
import type { UploadListRow } from './uploads.repo.js';

/** An upload as GET /users/uploads answers it; null for a record without encryption info (never ours). */
export function toUploadItem(row: UploadListRow): UploadItem | null {
  const encryptionInfo = parseEncryptionInfo(row.encryption_info);
  if (encryptionInfo === null) return null;
  return {
    uploadId: row.id,
    fileName: row.file_name,
    contentType: row.content_type,
    isEncrypted: fromDbBool(row.is_encrypted),
    size: row.size,
    createdAt: row.created_at,
    userId: row.user_id,
    status: row.status,
    parts: row.parts,
    // Parts are forgotten once an upload is finished; a complete upload has all of them.
    completedParts: row.status === 'complete' ? row.parts : row.completed_parts,
    encryptionInfo,
    objectKey: row.object_key,
    ...uploadNodeOf(row.node),
  };
}

/**
 * The node an upload was sent with (JSON text checked when the upload began): what the browser needs
 * to open its sealed name in the list (issue 31). A file request's upload has only the node id and
 * the sealed metadata; an upload from before encrypted names has no node.
 */
function uploadNodeOf(nodeJson: string | null): Partial<UploadItem> {
  if (nodeJson === null) return {};
  const node = JSON.parse(nodeJson) as Partial<Record<keyof FileNode, unknown>>;
  const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
  const nodeId = text(node.nodeId);
  const encryptedMetadata = text(node.encryptedMetadata);
  if (nodeId === undefined || encryptedMetadata === undefined) return {};
  const wrappedKey = text(node.wrappedKey);
  const nodeRecord = text(node.nodeRecord);
  return {
    nodeId,
    encryptedMetadata,
    ...(node.parentNodeId === null || typeof node.parentNodeId === 'string'
      ? { parentNodeId: node.parentNodeId }
      : {}),
    ...(wrappedKey === undefined ? {} : { wrappedKey }),
    ...(nodeRecord === undefined ? {} : { nodeRecord }),
  };
}

/** ETags compare without quotes or the weak marker: S3 quotes them, clients may not. */
export function sameEtag(a: string, b: string): boolean {
  const bare = (etag: string) => etag.replace(/^W\//, '').replaceAll('"', '');
  return bare(a) === bare(b);
}
