import { useState, type ReactElement, type ReactNode } from 'react';
import { Text } from '@mantine/core';
import { IconArrowsMove, IconShare, IconTrash } from '@tabler/icons-react';
import { useApiClient } from '../../lib/api/context';
import { filesApi } from '../../lib/api/files';
import { deleteFolder, foldersBelow, type DriveFile, type DriveFolder } from '../../lib/drive';
import type { FileView } from '../../lib/files/file-views';
import { snackbar } from '../../lib/snackbar';
import { ActionButton } from '../../ui/ActionButton';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { CreateLinkButton } from '../links/CreateLinkButton';
import { failedItemsText } from './bulk-failures';
import { SelectModeButton, SelectionZipBar } from './SelectionControls';
import { ZipProgressCard } from './ZipProgressCard';
import { countBelow } from './use-folder-actions';
import { driveFileOf, type FolderView } from './use-folder-view';
import { zipPlan } from './zip-plan';

export interface BulkActions {
  /** "Select" in the header: starts selection mode. */
  readonly selectButton: ReactNode;
  /** The selection bar (in selection mode) and a running ZIP's progress. */
  readonly bar: ReactNode;
  readonly dialogs: ReactElement;
}

/**
 * My Files' selection mode (issue 31): checkboxes on cards, Select all, and a bar with the count and
 * its actions: download as one ZIP, move, share (files), delete (ConfirmDialog).
 */
export function useBulkActions<F extends FileView>(
  view: FolderView<F>,
  onShareFiles: (fileIds: readonly string[]) => void,
): BulkActions {
  const api = useApiClient();
  const { selection } = view;
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState(false);

  const selectedFiles = view.driveFiles.filter((file) => selection.files.has(file.fileId));
  const selectedFolders = view.folders.filter((folder) => selection.folders.has(folder.nodeId));
  const visibleFiles = view.files.flatMap((file) => driveFileOf(file) ?? []);
  const selectable = {
    files: visibleFiles.map((file) => file.fileId),
    folders: view.shownFolders.filter((folder) => folder.state === 'open').map((folder) => folder.nodeId),
  };
  const nothing = selection.count === 0;

  const remove = async (): Promise<void> => {
    setPending(true);
    const total = selectedFolders.length + selectedFiles.length;
    const failed: (DriveFile | DriveFolder)[] = [];
    // Each item on its own: a failure is remembered and the rest still go.
    for (const folder of selectedFolders)
      await deleteFolder(api, folder.nodeId).catch(() => failed.push(folder));
    // Files inside a folder deleted here went with it.
    const gone = new Set(
      selectedFolders
        .filter((folder) => !failed.includes(folder))
        .flatMap((folder) => [folder.nodeId, ...foldersBelow(view.folders, folder.nodeId)]),
    );
    for (const file of selectedFiles) {
      if (file.parentNodeId !== null && gone.has(file.parentNodeId)) continue;
      await filesApi.delete(api, file.fileId).catch(() => failed.push(file));
    }
    setPending(false);
    setConfirming(false);
    await view.drive.refresh();
    if (failed.length === 0) {
      snackbar.success(`Deleted ${total} ${total === 1 ? 'item' : 'items'}`);
      selection.stop();
      return;
    }
    // The failed ones are named and stay selected; the deleted ones leave the selection.
    snackbar.danger(failedItemsText('delete', failed, total));
    selection.drop(
      selectedFiles.filter((file) => !failed.includes(file)).map((file) => file.fileId),
      selectedFolders.filter((folder) => !failed.includes(folder)).map((folder) => folder.nodeId),
    );
  };

  const inside = selectedFolders.reduce(
    (sum, folder) => sum + countBelow(folder, view.folders, view.driveFiles).files,
    0,
  );

  return {
    selectButton: <SelectModeButton selection={selection} />,
    bar: (
      <>
        {view.zip.running !== null && <ZipProgressCard zip={view.zip.running} />}
        {selection.active && (
          <SelectionZipBar
            selection={selection}
            selectable={selectable}
            zipRunning={view.zip.running !== null}
            onZip={() => {
              view.zip.start(
                zipPlan(
                  { files: selectedFiles, folders: selectedFolders },
                  { files: view.driveFiles, folders: view.folders },
                  'My Files',
                ),
              );
            }}
          >
            <ActionButton
              size="xs"
              variant="default"
              icon={IconArrowsMove}
              disabled={nothing}
              onClick={() => {
                view.openMove([...selectedFolders, ...selectedFiles.filter((file) => file.state === 'open')]);
              }}
            >
              Move
            </ActionButton>
            <ActionButton
              size="xs"
              variant="default"
              icon={IconShare}
              disabled={selectedFiles.length === 0}
              onClick={() => {
                onShareFiles(selectedFiles.map((file) => file.fileId));
              }}
            >
              Share
            </ActionButton>
            <CreateLinkButton files={selectedFiles.filter((file) => file.state === 'open')} />
            <ActionButton
              size="xs"
              color="red"
              variant="light"
              icon={IconTrash}
              disabled={nothing}
              onClick={() => {
                setConfirming(true);
              }}
            >
              Delete
            </ActionButton>
          </SelectionZipBar>
        )}
      </>
    ),
    dialogs: (
      <ConfirmDialog
        opened={confirming}
        title={`Delete ${selection.count} ${selection.count === 1 ? 'item' : 'items'}?`}
        confirmLabel="Delete"
        pending={pending}
        onClose={() => {
          setConfirming(false);
        }}
        onConfirm={() => {
          void remove();
        }}
      >
        <Text>
          {describe(selectedFiles, selectedFolders, inside)} will be deleted for you and everyone they are
          shared with. This cannot be undone.
        </Text>
      </ConfirmDialog>
    ),
  };
}

function describe(files: readonly DriveFile[], folders: readonly DriveFolder[], inside: number): string {
  const parts: string[] = [];
  if (files.length > 0) parts.push(`${files.length} ${files.length === 1 ? 'file' : 'files'}`);
  if (folders.length > 0)
    parts.push(
      `${folders.length} ${folders.length === 1 ? 'folder' : 'folders'} (with ${inside} ${inside === 1 ? 'file' : 'files'} inside)`,
    );
  return parts.join(' and ');
}
