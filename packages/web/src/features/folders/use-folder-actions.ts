import { useApiClient } from '../../lib/api/context';
import {
  changeFile,
  createFolder,
  deleteFolder,
  foldersBelow,
  moveFolder,
  renameFolder,
  type DriveFile,
  type DriveFolder,
} from '../../lib/drive';
import { snackbar } from '../../lib/snackbar';
import { failedItemsText } from './bulk-failures';
import type { MyFolders } from './use-my-folders';

/** A file or a folder of My Files, as the actions take them. */
export type DriveItem = DriveFile | DriveFolder;

export interface FolderActions {
  create(parent: string | null, name: string): Promise<void>;
  renameFolder(folder: DriveFolder, name: string): Promise<void>;
  renameFile(file: DriveFile, name: string): Promise<void>;
  /**
   * Moves each item under `target` (null: the top); one API call per item, going on past failures.
   * Resolves with the items that failed (named in a snackbar); rejects when none moved.
   */
  move(items: readonly DriveItem[], target: string | null): Promise<readonly DriveItem[]>;
  deleteFolder(folder: DriveFolder): Promise<void>;
}

/**
 * The folder changes of My Files: each one built in the browser (new wrap, sealed name, signed
 * record) and sent as one API call, then the list refreshed. Failures are said in a snackbar and
 * rethrown, so a dialog stays open.
 */
export function useFolderActions(drive: MyFolders): FolderActions {
  const api = useApiClient();
  const signerOrFail = () => {
    if (drive.signer === null) throw new Error('Unlock encryption first');
    return drive.signer;
  };
  const parentOrFail = (nodeId: string | null) => {
    const parent = drive.parentFor(nodeId);
    if (parent === null) throw new Error('That folder did not open');
    return parent;
  };
  const run = async (
    work: () => Promise<unknown>,
    done: string,
    failed: string,
    /** After the work: the words of a partial failure (said instead of `done`). */
    partly?: () => string | undefined,
  ): Promise<void> => {
    try {
      await work();
      const partial = partly?.();
      if (partial === undefined) snackbar.success(done);
      else snackbar.danger(partial);
    } catch (error) {
      console.warn(failed, error);
      snackbar.danger(
        `${failed}${error instanceof Error && error.message !== '' ? `: ${error.message}` : ''}`,
      );
      throw error;
    } finally {
      await drive.refresh();
    }
  };
  return {
    create: (parent, name) =>
      run(
        () => createFolder(api, { parent: parentOrFail(parent), name }, signerOrFail()),
        'Folder created',
        'Could not create the folder',
      ),
    renameFolder: (folder, name) =>
      run(
        () => renameFolder(api, folder, name, signerOrFail()),
        'Folder renamed',
        'Could not rename the folder',
      ),
    renameFile: (file, name) =>
      run(
        () => changeFile(api, file, { from: parentOrFail(file.parentNodeId), name }, signerOrFail()),
        'File renamed',
        'Could not rename the file',
      ),
    move: async (items, target) => {
      const failed: DriveItem[] = [];
      let lastError: unknown = null;
      await run(
        async () => {
          const to = parentOrFail(target);
          const signer = signerOrFail();
          for (const item of items) {
            if (item.parentNodeId === target) continue;
            try {
              const from = parentOrFail(item.parentNodeId);
              if (item.kind === 'folder') {
                if (
                  target === item.nodeId ||
                  (target !== null && foldersBelow(drive.folders, item.nodeId).has(target))
                )
                  throw new Error('A folder cannot move into itself');
                await moveFolder(api, item, from, to, signer);
              } else {
                await changeFile(api, item, { from, to }, signer);
              }
            } catch (error) {
              // One item's failure does not stop the others: the failed ones are named at the end.
              failed.push(item);
              lastError = error;
            }
          }
          // A single item's failure is said as before (its reason); several are named.
          if (failed.length > 0 && items.length === 1) throw lastError;
        },
        items.length === 1 ? 'Moved' : `Moved ${items.length} items`,
        'Could not move',
        () => (failed.length > 0 ? failedItemsText('move', failed, items.length) : undefined),
      );
      if (failed.length === items.length && failed.length > 0) throw lastError;
      return failed;
    },
    deleteFolder: (folder) =>
      run(() => deleteFolder(api, folder.nodeId), 'Folder deleted', 'Could not delete the folder'),
  };
}

/** How many files and folders are below a folder (what its delete removes). */
export function countBelow(
  folder: DriveFolder,
  folders: readonly DriveFolder[],
  files: readonly DriveFile[],
): { files: number; folders: number } {
  const below = foldersBelow(folders, folder.nodeId);
  below.add(folder.nodeId);
  return {
    folders: below.size - 1,
    files: files.filter((file) => file.parentNodeId !== null && below.has(file.parentNodeId)).length,
  };
}
