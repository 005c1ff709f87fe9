import type { Folder } from '@coffer/contracts';
import type { ApiClient } from '../api/http';
import { driveApi } from './drive-api';
import { openDrive } from './drive-open';
import { checkNodeRecords } from './drive-records';
import { buildDriveTree, type DriveTree } from './drive-tree';

/** What opening my drive needs from the unlocked session. */
export interface DriveKeys {
  /** Absent when the unlock could not get one: encrypted nodes then show as unreadable. */
  readonly driveKey?: CryptoKey;
  readonly signingPublicKeyB64?: string;
}

/**
 * Fetches my files and folders (GET /users/files, GET /users/folders) and opens them: the tree
 * with decrypted, sanitized names, every record still `checking`. Then {@link withCheckedRecords}.
 */
export async function loadDrive(api: ApiClient, keys: DriveKeys): Promise<DriveTree> {
  const [items, folderItems] = await Promise.all([driveApi.files(api), foldersOrNone(api)]);
  const { files, folders } = await openDrive(items, folderItems, keys.driveKey);
  return buildDriveTree(files, folders);
}

/** The same tree with every node record verified against my signing key. */
export async function withCheckedRecords(
  tree: DriveTree,
  ownerEmail: string,
  signingPublicKeyB64: string | undefined,
): Promise<DriveTree> {
  const records = await checkNodeRecords([...tree.folders, ...tree.files], ownerEmail, signingPublicKeyB64);
  return buildDriveTree(tree.files, tree.folders, records);
}

/** An API without folders (404) lists none. */
async function foldersOrNone(api: ApiClient): Promise<Folder[]> {
  try {
    return await driveApi.folders(api);
  } catch (error) {
    if ((error as { status?: unknown } | null)?.status === 404) return [];
    throw error;
  }
}
