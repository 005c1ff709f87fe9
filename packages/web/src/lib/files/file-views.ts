import {
  fileTypeOf,
  formatDateTime,
  formatSize,
  type FileListItem,
  type FileType,
  type SharedFileItem,
} from '@coffer/contracts';

/** One of my files as the screens show it (spec section 3, "File (own list, as the screen uses it)"). */
export interface FileView {
  readonly id: string;
  /** The file's name; what the card shows. */
  readonly title: string;
  readonly name: string;
  readonly fileType: FileType;
  readonly contentType: string;
  /** Display size ('1.50 MB'). */
  readonly size: string;
  readonly sizeBytes: number;
  readonly isEncrypted: boolean;
  /** Display date 'dd/mm/yyyy HH:MM:SS', parsed back for sorting. */
  readonly datetime: string;
  /** The server's ISO timestamp: breaks ties between files uploaded within the same second. */
  readonly uploadedAt: string;
}

/** A file someone shared with me: the same fields plus the sender's email. */
export interface SharedFileView extends FileView {
  readonly owner: string;
}

/**
 * Size and upload time ('1.50 MB · 24/11/2026 05:40:12'): what tells apart files that share a name
 * wherever a file is picked or named for a decision (issue 15, point 11).
 */
export function fileFacts(file: Pick<FileView, 'size' | 'datetime'>): string {
  return `${file.size} · ${file.datetime}`;
}

/** The title a card shows: the name, or a stand-in when the name is blank. */
function titleOf(name: string): string {
  const trimmed = name.trim();
  return trimmed === '' ? 'Untitled file' : trimmed;
}

export function toFileView(item: FileListItem): FileView {
  return {
    id: item.fileId,
    title: titleOf(item.name),
    name: item.name,
    fileType: fileTypeOf(item.name),
    contentType: item.contentType,
    size: formatSize(item.size),
    sizeBytes: item.size,
    isEncrypted: item.isEncrypted,
    datetime: formatDateTime(item.uploadedAt),
    uploadedAt: item.uploadedAt,
  };
}

export function toSharedFileView(item: SharedFileItem): SharedFileView {
  const { file } = item;
  return {
    id: item.fileId,
    title: titleOf(file.name),
    name: file.name,
    fileType: fileTypeOf(file.name),
    contentType: file.contentType,
    size: formatSize(file.size),
    sizeBytes: file.size,
    isEncrypted: file.isEncrypted,
    datetime: formatDateTime(file.uploadedAt),
    uploadedAt: file.uploadedAt,
    owner: item.owner,
  };
}
