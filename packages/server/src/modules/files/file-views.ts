import type { EncryptionInfo, FileListItem, FileMetadata } from '@coffer/contracts';
import { EncryptionInfoSchema } from '@coffer/contracts';
import { Value } from 'typebox/value';
import type { FileRow } from '../../infra/db/schema.js';
import type { FileListRow } from './files.repo.js';
import { fromDbBool } from '../../infra/db/values.js';

/** Where a file's ciphertext lives: one object per file, under its owner. */
export function objectKeyFor(ownerId: string, fileId: string): string {
  return `u/${ownerId}/${fileId}`;
}

/** The stored JSON of `encryption_info`; null for unencrypted rows or a record that is not one. */
export function parseEncryptionInfo(json: string | null): EncryptionInfo | null {
  if (json === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return null;
  }
  return Value.Check(EncryptionInfoSchema, parsed) ? parsed : null;
}

export function toFileListItem(row: FileListRow): FileListItem {
  return {
    fileId: row.id,
    name: row.name,
    contentType: row.content_type,
    isEncrypted: fromDbBool(row.is_encrypted),
    size: row.size,
    uploadedAt: row.uploaded_at,
    ownerId: row.owner_id,
  };
}

export function toFileMetadata(
  row: FileRow,
  encryptionInfo = parseEncryptionInfo(row.encryption_info),
): FileMetadata {
  return {
    fileId: row.id,
    name: row.name,
    originalFilename: row.name,
    contentType: row.content_type,
    size: row.size,
    isEncrypted: fromDbBool(row.is_encrypted),
    encryptionInfo,
    uploadedAt: row.uploaded_at,
    ...(row.manifest === null ? {} : { manifest: row.manifest }),
  };
}
