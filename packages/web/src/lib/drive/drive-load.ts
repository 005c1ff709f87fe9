import type { Folder } from '@coffer/contracts';
import type { ApiClient } from '../api/http';
import { driveApi } from './drive-api';
import type { DriveFile } from './drive-nodes';
import { openFilesIn, openFolderTree } from './drive-open';
import { checkNodeRecords } from './drive-records';
import { measureSince, timingStart } from './drive-timing';
import { buildDriveTree, type DriveTree } from './drive-tree';

/** What opening my drive needs from the unlocked session. */
export interface DriveKeys {
  /** Absent when the unlock could not get one: encrypted nodes then show as unreadable. */
  readonly driveKey?: CryptoKey;
  readonly signingPublicKeyB64?: string;
}

/**
 * My files a page at a time (GET /users/files, newest first), each page opened as soon as it is
 * there while the next one arrives: the first screen shows after one page, not after every name of
 * a 10,000-file drive. Folders (GET /users/folders, asked for with the first page) are opened
 * first, top down, since their keys open the files in them. Every record is still `checking`
 * (see {@link checkNodeRecords}).
 *
 * User Timing (names only): `coffer:drive:first-page` and `coffer:drive:names` (every page open),
 * from the start of the call.
 */
export async function* loadDrivePages(api: ApiClient, keys: DriveKeys): AsyncGenerator<DriveFile[]> {
  const started = timingStart();
  const pages = driveApi.filePages(api);
  // The first page is asked for together with the folders.
  const first = pages.next();
  first.catch(() => undefined);
  const opened = await openFolderTree(await foldersOrNone(api), keys.driveKey);
  let page = await first;
  let index = 0;
  while (page.done !== true) {
    const files = await openFilesIn(opened, page.value);
    if (index === 0) measureSince('first-page', started);
    index += 1;
    yield files;
    page = await pages.next();
  }
  measureSince('names', started);
}

/**
 * Fetches my files and folders (GET /users/files, GET /users/folders) and opens them: the tree
 * with decrypted, sanitized names, every record still `checking`. Then {@link withCheckedRecords}.
 */
export async function loadDrive(api: ApiClient, keys: DriveKeys): Promise<DriveTree> {
  const [items, folderItems] = await Promise.all([driveApi.files(api), foldersOrNone(api)]);
  const opened = await openFolderTree(folderItems, keys.driveKey);
  return buildDriveTree(await openFilesIn(opened, items), opened.folders);
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
