import { DEFAULT_CONTENT_TYPE, type FileListItem, type Folder } from '@coffer/contracts';
import { openNodesMetadata, sanitizeDisplayName, type ListedNode } from '@coffer/crypto';
import {
  UNREADABLE_FILE_NAME,
  UNREADABLE_FOLDER_NAME,
  type DriveFile,
  type DriveFolder,
} from './drive-nodes';
import { isRequestArrival } from './clear-name-migration';
import { cryptoParentId } from './node-place';

const NO_DRIVE_KEY = 'encryption is unlocked without a drive key';
const PARENT_UNREADABLE = 'its folder did not open';

/**
 * Opens the drive as the server lists it: folders from the top down (each level's keys open the
 * next), then every file under its folder's key, with the batch opener (two AES-GCM operations per
 * node, no RSA). A node that does not open is `unreadable`, never a crash and never a name the
 * server chose; files without a node keep their clear name (`clear`).
 */
export async function openDrive(
  items: readonly FileListItem[],
  folderItems: readonly Folder[],
  driveKey: CryptoKey | undefined,
  /** A subtree instead (a folder shared with me): its node id, `driveKey` being that folder's key. */
  root: string | null = null,
): Promise<{ files: DriveFile[]; folders: DriveFolder[] }> {
  const opened = await openFolderTree(folderItems, driveKey, root);
  return { folders: opened.folders, files: await openFilesIn(opened, items) };
}

/** The folders opened, and the key each folder's files open under (`root`'s: the drive key). */
export interface OpenedFolders {
  readonly folders: DriveFolder[];
  readonly keys: ReadonlyMap<string | null, CryptoKey>;
  readonly hasDriveKey: boolean;
}

/** The first half of {@link openDrive}: the folders, top down. */
export async function openFolderTree(
  folderItems: readonly Folder[],
  driveKey: CryptoKey | undefined,
  root: string | null = null,
): Promise<OpenedFolders> {
  const folders = await openFolders(folderItems, driveKey, root);
  const keys = new Map<string | null, CryptoKey>();
  if (driveKey !== undefined) keys.set(root, driveKey);
  for (const folder of folders) if (folder.folderKey !== undefined) keys.set(folder.nodeId, folder.folderKey);
  return { folders, keys, hasDriveKey: driveKey !== undefined };
}

/** The second half of {@link openDrive}: files (all, or one page of them) under the opened folders. */
export function openFilesIn(opened: OpenedFolders, items: readonly FileListItem[]): Promise<DriveFile[]> {
  return openFiles(items, opened.keys, opened.hasDriveKey);
}

async function openFolders(
  items: readonly Folder[],
  driveKey: CryptoKey | undefined,
  root: string | null,
): Promise<DriveFolder[]> {
  const children = groupBy(items, (folder) => folder.parentNodeId);
  const opened = new Map<string, DriveFolder>();
  let level: { parent: string | null; key: CryptoKey }[] =
    driveKey === undefined ? [] : [{ parent: root, key: driveKey }];
  // Top down, one level at a time; a folder is reached once (a served cycle is never reached).
  while (level.length > 0) {
    const next: { parent: string | null; key: CryptoKey }[] = [];
    await Promise.all(
      level.map(async ({ parent, key }) => {
        const kids = (children.get(parent) ?? []).filter((folder) => !opened.has(folder.nodeId));
        const results = await openNodesMetadata(key, kids.map(listedFolder));
        kids.forEach((item, index) => {
          const result = results[index];
          const folder: DriveFolder =
            result?.ok === true
              ? {
                  ...folderBase(item),
                  name: sanitizeDisplayName(result.name),
                  state: 'open',
                  folderKey: result.nodeKey,
                }
              : { ...folderBase(item), ...unreadableFolder(result?.reason ?? 'not opened') };
          opened.set(item.nodeId, folder);
          if (folder.folderKey !== undefined) next.push({ parent: item.nodeId, key: folder.folderKey });
        });
      }),
    );
    level = next;
  }
  return items.map(
    (item) =>
      opened.get(item.nodeId) ?? {
        ...folderBase(item),
        ...unreadableFolder(driveKey === undefined ? NO_DRIVE_KEY : PARENT_UNREADABLE),
      },
  );
}

async function openFiles(
  items: readonly FileListItem[],
  keys: ReadonlyMap<string | null, CryptoKey>,
  hasDriveKey: boolean,
): Promise<DriveFile[]> {
  const files = new Array<DriveFile>(items.length);
  const groups = new Map<string | null, { index: number; node: ListedNode }[]>();
  items.forEach((item, index) => {
    if (item.nodeId === undefined) {
      files[index] = clearFile(item);
      return;
    }
    if (isRequestArrival(item)) {
      // Came through a file request, not placed yet: as a clear file until the migration places it.
      files[index] = { ...clearFile(item), nodeId: null };
      return;
    }
    if (item.wrappedKey === undefined || item.encryptedMetadata === undefined) {
      files[index] = unreadableFile(item, 'its key or metadata is missing');
      return;
    }
    const parent = item.parentNodeId ?? null;
    const group = groups.get(parent) ?? [];
    group.push({
      index,
      node: {
        nodeId: item.nodeId,
        parentNodeId: cryptoParentId(parent),
        kind: 'file',
        wrappedKeyB64: item.wrappedKey,
        encryptedMetadataB64: item.encryptedMetadata,
      },
    });
    groups.set(parent, group);
  });
  await Promise.all(
    [...groups].map(async ([parent, group]) => {
      const key = keys.get(parent);
      if (key === undefined) {
        const why = hasDriveKey ? PARENT_UNREADABLE : NO_DRIVE_KEY;
        for (const { index } of group) files[index] = unreadableFile(itemAt(items, index), why);
        return;
      }
      const results = await openNodesMetadata(
        key,
        group.map(({ node }) => node),
      );
      group.forEach(({ index }, position) => {
        const item = itemAt(items, index);
        const result = results[position];
        files[index] =
          result?.ok === true
            ? {
                ...fileBase(item),
                name: sanitizeDisplayName(result.name),
                contentType: result.contentType ?? DEFAULT_CONTENT_TYPE,
                state: 'open',
                fileKey: result.nodeKey,
              }
            : unreadableFile(item, result?.reason ?? 'not opened');
      });
    }),
  );
  return files;
}

function listedFolder(folder: Folder): ListedNode {
  return {
    nodeId: folder.nodeId,
    parentNodeId: cryptoParentId(folder.parentNodeId),
    kind: 'folder',
    wrappedKeyB64: folder.wrappedKey,
    encryptedMetadataB64: folder.encryptedMetadata,
  };
}

function folderBase(item: Folder): Omit<DriveFolder, 'name' | 'state'> {
  return {
    kind: 'folder',
    nodeId: item.nodeId,
    parentNodeId: item.parentNodeId,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
    item,
  };
}

function unreadableFolder(problem: string): Pick<DriveFolder, 'name' | 'state' | 'problem'> {
  return { name: UNREADABLE_FOLDER_NAME, state: 'unreadable', problem };
}

function fileBase(item: FileListItem): Omit<DriveFile, 'name' | 'contentType' | 'state'> {
  return {
    kind: 'file',
    fileId: item.fileId,
    nodeId: item.nodeId ?? null,
    parentNodeId: item.parentNodeId ?? null,
    size: item.size,
    uploadedAt: item.uploadedAt,
    item,
  };
}

function clearFile(item: FileListItem): DriveFile {
  return {
    ...fileBase(item),
    name: sanitizeDisplayName(item.name),
    contentType: item.contentType,
    state: 'clear',
  };
}

function unreadableFile(item: FileListItem, problem: string): DriveFile {
  return {
    ...fileBase(item),
    name: UNREADABLE_FILE_NAME,
    contentType: DEFAULT_CONTENT_TYPE,
    state: 'unreadable',
    problem,
  };
}

function itemAt<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`no item at ${index}`);
  return item;
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string | null): Map<string | null, T[]> {
  const groups = new Map<string | null, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key) ?? [];
    group.push(item);
    groups.set(key, group);
  }
  return groups;
}
