import {
  downloadMessages,
  ENCRYPTION_FORMAT,
  type EncryptionInfo,
  type FileMetadata,
  type SharedFileMetadata,
} from '@coffer/contracts';
import type { ApiClient } from '../api/http';
import { seg } from '../api/http';
import { TransferError } from './transfer-errors';

export type DownloadSource = 'own' | 'shared';

/** What the download needs from the metadata call. */
export interface DownloadMetadata {
  readonly name: string;
  readonly contentType: string;
  readonly size: number;
  /** The file key wrapped to the current user (owner's copy or the recipient's). */
  readonly encryptedFileKey: string;
  readonly downloadPath: string;
}

/** Ours: a stored format or chunk size this client does not read. */
export const UNSUPPORTED_FORMAT_TEXT = 'This file is stored in a format this version of Coffer cannot read.';

const BASE64_SHAPE = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The metadata answer a download starts from: the owner's (`GET /users/files/{id}`) or the
 * recipient's (`GET /users/files/shared/{id}`).
 */
export type RawDownloadMetadata =
  | { readonly source: 'own'; readonly file: FileMetadata }
  | { readonly source: 'shared'; readonly shared: SharedFileMetadata };

/** GET /users/files/{id} (owner) or /users/files/shared/{id} (recipient). */
export async function fetchRawDownloadMetadata(
  api: ApiClient,
  source: DownloadSource,
  fileId: string,
  signal: AbortSignal,
): Promise<RawDownloadMetadata> {
  if (source === 'own') {
    return {
      source,
      file: await api.request<FileMetadata>('GET', `/users/files/${seg(fileId)}`, { signal }),
    };
  }
  return {
    source,
    shared: await api.request<SharedFileMetadata>('GET', `/users/files/shared/${seg(fileId)}`, { signal }),
  };
}

/**
 * What the download needs from a metadata answer, checked per spec section 5: the file must be
 * encrypted, a shared file's key must be a string. A key that does not look like base64 only warns
 * (the unwrap fails anyway if it is bad).
 */
export function toDownloadMetadata(
  raw: RawDownloadMetadata,
  fileId: string,
  chunkSize: number,
): DownloadMetadata {
  const { source } = raw;
  let file: FileMetadata;
  let encryptedFileKey: unknown;
  let downloadPath: string;
  if (raw.source === 'own') {
    file = raw.file;
    encryptedFileKey = file.encryptionInfo?.encryptedFileKey;
    downloadPath = `/users/files/${seg(fileId)}/download`;
  } else {
    file = raw.shared.file;
    encryptedFileKey = (raw.shared as { encryptedFileKey?: unknown }).encryptedFileKey;
    downloadPath = `/users/files/shared/${seg(fileId)}/download`;
  }
  if (!file.isEncrypted || (source === 'own' && file.encryptionInfo === null)) {
    throw new TransferError('NOT_ENCRYPTED', downloadMessages.notEncrypted);
  }
  if (typeof encryptedFileKey !== 'string' || encryptedFileKey === '') {
    throw new TransferError('FILE_KEY', downloadMessages.missingSharedKey);
  }
  if (!BASE64_SHAPE.test(encryptedFileKey)) console.warn('The encrypted file key does not look like base64');
  assertReadableFormat(file.encryptionInfo, chunkSize);
  return {
    name: file.name,
    contentType: file.contentType,
    size: file.size,
    encryptedFileKey,
    downloadPath,
  };
}

function assertReadableFormat(info: EncryptionInfo | null, chunkSize: number): void {
  if (info === null) return;
  // Typed as the one format, but this is the server's data: check the value, not the type.
  const format: unknown = info.format;
  const wrongFormat = format !== undefined && format !== ENCRYPTION_FORMAT;
  const wrongChunkSize = info.chunkSize !== undefined && info.chunkSize !== chunkSize;
  if (wrongFormat || wrongChunkSize) throw new TransferError('NOT_ENCRYPTED', UNSUPPORTED_FORMAT_TEXT);
}
