import type { UploadItem } from '@coffer/contracts';
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
  };
}

/** ETags compare without quotes or the weak marker: S3 quotes them, clients may not. */
export function sameEtag(a: string, b: string): boolean {
  const bare = (etag: string) => etag.replace(/^W\//, '').replaceAll('"', '');
  return bare(a) === bare(b);
}
