import type { EncryptionInfo, FileListItem, FileMetadata } from '@coffer/contracts';
import { DEFAULT_CONTENT_TYPE, ENCRYPTED_FILE_NAME } from '@coffer/contracts';
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

/** The node columns of a file row (migration 0009): all set, or none, or a file request's arrival (node id and metadata). */
export type FileNodeColumns = Pick<
  FileRow,
  'node_id' | 'parent_node_id' | 'wrapped_key' | 'encrypted_metadata' | 'node_record'
>;

/** What a file row stores in place of a clear name and content type once its metadata is sealed. */
export const SEALED_NAME_COLUMNS = { name: ENCRYPTED_FILE_NAME, content_type: DEFAULT_CONTENT_TYPE } as const;

/**
 * The node members of a file answer. The owner gets all of them; a recipient of a file share only what
 * opens and checks the metadata with the file key (not the wrap under a folder of the owner's, nor where
 * the file sits in the owner's drive). A file that came through a file request and is not placed yet
 * (issue 30: a node id and the uploader's sealed metadata, no wrap or record) answers its owner with
 * `nodeId` and `encryptedMetadata` only: the owner's browser opens them with the RSA owner copy and
 * places the file.
 */
export function fileNodeOf(
  row: FileNodeColumns,
  view: 'owner' | 'recipient',
): Pick<FileListItem, 'nodeId' | 'parentNodeId' | 'wrappedKey' | 'encryptedMetadata' | 'nodeRecord'> {
  const { node_id, wrapped_key, encrypted_metadata, node_record } = row;
  if (node_id === null || encrypted_metadata === null) return {};
  if (wrapped_key === null || node_record === null)
    return view === 'owner' ? { nodeId: node_id, encryptedMetadata: encrypted_metadata } : {};
  const shared = { nodeId: node_id, encryptedMetadata: encrypted_metadata, nodeRecord: node_record };
  return view === 'owner' ? { ...shared, parentNodeId: row.parent_node_id, wrappedKey: wrapped_key } : shared;
}

/**
 * A row of the owner's list as answered; `clear_manifest` (the owner's list only) is a placed file
 * whose stored manifest is still version 1 (its name in clear): `clearManifest: true`; `shared` (the
 * owner's list only): the file is shared with someone (`shared: true`).
 */
export function toFileListItem(
  row: FileListRow &
    FileNodeColumns & {
      clear_manifest?: number | string | boolean;
      shared?: number | string | boolean;
    },
): FileListItem {
  return {
    fileId: row.id,
    name: row.name,
    contentType: row.content_type,
    isEncrypted: fromDbBool(row.is_encrypted),
    size: row.size,
    uploadedAt: row.uploaded_at,
    ownerId: row.owner_id,
    ...fileNodeOf(row, 'owner'),
    ...(Number(row.clear_manifest ?? 0) === 1 ? { clearManifest: true as const } : {}),
    ...(Number(row.shared ?? 0) === 1 ? { shared: true as const } : {}),
  };
}

/** `view` 'recipient' (the default, as the shares module answers) leaves out the owner's wrap and place. */
export function toFileMetadata(
  row: FileRow,
  encryptionInfo = parseEncryptionInfo(row.encryption_info),
  view: 'owner' | 'recipient' = 'recipient',
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
    ...fileNodeOf(row, view),
  };
}
