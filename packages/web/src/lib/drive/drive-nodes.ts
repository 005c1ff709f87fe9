import type { FileListItem, Folder } from '@coffer/contracts';

/**
 * How far a node opened:
 * - `open`: its key unwrapped under its parent and its metadata decrypted (the name shown is the owner's);
 * - `clear`: a file from before encrypted names: the server's clear name, until the migration seals it;
 * - `unreadable`: its key or metadata did not open (moved, swapped or altered by the server, or its
 *   parent did not open): shown as unreadable, never with a name the server chose.
 */
export type NodeState = 'open' | 'clear' | 'unreadable';

/**
 * Whether the owner's signed node record matches the node as served: `checking` until it is
 * verified; `tampered` when it is missing, not signed by me, or names another place, key or
 * metadata (moved, swapped or injected by the server).
 */
export type RecordState = 'checking' | 'valid' | 'tampered' | 'none';

/** One of my files in the drive, with its decrypted name. */
export interface DriveFile {
  readonly kind: 'file';
  readonly fileId: string;
  /** Null for a file with a clear name (not yet migrated). */
  readonly nodeId: string | null;
  /** The folder it is in; null at the top of My Files. */
  readonly parentNodeId: string | null;
  /** Safe to display: passed through `sanitizeDisplayName` (or a stand-in for unreadable nodes). */
  readonly name: string;
  readonly contentType: string;
  readonly size: number;
  readonly uploadedAt: string;
  readonly state: NodeState;
  /** Why an unreadable node did not open (for a tooltip or the console), never shown as its name. */
  readonly problem?: string;
  /** The file key (non-extractable), once opened through the tree. */
  readonly fileKey?: CryptoKey;
  /** The server's answer it came from. */
  readonly item: FileListItem;
}

/** One of my folders, with its decrypted name and its key (to open its children, to share it). */
export interface DriveFolder {
  readonly kind: 'folder';
  readonly nodeId: string;
  readonly parentNodeId: string | null;
  readonly name: string;
  readonly state: Exclude<NodeState, 'clear'>;
  readonly problem?: string;
  readonly folderKey?: CryptoKey;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly item: Folder;
}

export type DriveNode = DriveFile | DriveFolder;

/** What an unreadable node is shown as. */
export const UNREADABLE_FILE_NAME = 'Unreadable file';
export const UNREADABLE_FOLDER_NAME = 'Unreadable folder';
