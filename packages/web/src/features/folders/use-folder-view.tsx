import { useCallback, useMemo, useState, type ReactElement, type ReactNode } from 'react';
import { Button, Checkbox, Text } from '@mantine/core';
import {
  IconArrowsMove,
  IconFileZip,
  IconFolderPlus,
  IconPencil,
  IconShare,
  IconTrash,
} from '@tabler/icons-react';
import { useNavigate, useSearchParams } from 'react-router';
import { folderPath, foldersBelow, searchForm, type DriveFile, type DriveFolder } from '../../lib/drive';
import type { FileView } from '../../lib/files/file-views';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { IconAction } from '../../ui/IconAction';
import { FolderBreadcrumbs } from './FolderBreadcrumbs';
import { FolderCard } from './FolderCard';
import { FolderNameDialog } from './FolderNameDialog';
import { MoveDialog } from './MoveDialog';
import { ShareFolderDialog } from './ShareFolderDialog';
import { FOLDER_PARAM, folderHref } from './folder-href';
import { draggableNode, type DraggedNode } from './node-drag';
import { countBelow, useFolderActions, type DriveItem } from './use-folder-actions';
import { useMyFolders } from './use-my-folders';
import { useSelection, type Selection } from './use-selection';
import { useZipDownload } from './use-zip-download';
import { zipPlan } from './zip-plan';

/** A file view that came from lib/drive (My Files' views do). */
export function driveFileOf(file: FileView): DriveFile | undefined {
  return (file as { drive?: DriveFile }).drive;
}

type Dialog =
  | { kind: 'new' }
  | { kind: 'rename'; item: DriveItem }
  | { kind: 'move'; items: readonly DriveItem[] }
  | { kind: 'delete'; folder: DriveFolder }
  | { kind: 'share'; folder: DriveFolder }
  | null;

export interface FolderView<F extends FileView> {
  /** The folder shown (null: the top). */
  readonly current: string | null;
  readonly folders: readonly DriveFolder[];
  /** The files to list: the current folder's, or every file while a search is typed. */
  readonly files: readonly F[];
  readonly onSearchChange: (search: string) => void;
  readonly searching: boolean;
  /** The folders the grid shows now (the current folder's, or those the search finds). */
  readonly shownFolders: readonly DriveFolder[];
  /** Folder cards before the files. */
  readonly leading: (search: string) => { key: string; node: ReactNode }[];
  readonly breadcrumbs: ReactNode;
  readonly newFolderButton: ReactNode;
  /** A file card's extra actions (rename, move). */
  fileActions(file: F): ReactNode;
  /** Under a file card in search results: the folder it is in. */
  filePlace(file: F): ReactNode;
  /** Props that make a file card draggable onto folders and crumbs. */
  fileDrag(file: F): ReturnType<typeof draggableNode> | Record<string, never>;
  /** Opens "Move to…" for some items (the selection bar). */
  openMove(items: readonly DriveItem[]): void;
  readonly dialogs: ReactElement;
  /** The drive, for selection, ZIP and sharing. */
  readonly drive: ReturnType<typeof useMyFolders>;
  readonly actions: ReturnType<typeof useFolderActions>;
  /** Every file of mine as lib/drive opened it. */
  readonly driveFiles: readonly DriveFile[];
  readonly selection: Selection;
  readonly zip: ReturnType<typeof useZipDownload>;
  /** A file card's selection checkbox (in selection mode). */
  fileLeading(file: F): ReactNode;
}

/**
 * Folders in My Files (issue 31): /myfiles?folder=<nodeId>, breadcrumbs, folder cards first,
 * "New folder", rename, "Move to…" and drag and drop, delete with contents, search in every folder.
 * `folderCardExtras` adds actions of other features (share, select) to folder cards.
 */
export function useFolderView<F extends FileView>(
  allFiles: readonly F[],
  folderCardExtras?: (folder: DriveFolder) => ReactNode,
): FolderView<F> {
  const drive = useMyFolders();
  const actions = useFolderActions(drive);
  const selection = useSelection();
  const zip = useZipDownload();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const wanted = params.get(FOLDER_PARAM);
  const folders = drive.folders;
  const known = useMemo(() => new Set(folders.map((folder) => folder.nodeId)), [folders]);
  // An unknown folder (deleted, or not loaded yet) shows the top; a node under an unknown parent too.
  const current = wanted !== null && known.has(wanted) ? wanted : null;
  const placeOf = useCallback(
    (parent: string | null) => (parent !== null && known.has(parent) ? parent : null),
    [known],
  );
  const [search, setSearch] = useState('');
  const searching = search.trim() !== '';
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => {
    setDialog(null);
  };
  /** A card's Rename and Move to… (a folder's and a file's alike). */
  const renameAndMove = (name: string, item: DriveItem): ReactNode => (
    <>
      <IconAction
        tooltip="Rename"
        label={`Rename ${name}`}
        icon={IconPencil}
        onClick={() => {
          setDialog({ kind: 'rename', item });
        }}
      />
      <IconAction
        tooltip="Move to…"
        label={`Move ${name}`}
        icon={IconArrowsMove}
        onClick={() => {
          setDialog({ kind: 'move', items: [item] });
        }}
      />
    </>
  );

  const files = useMemo(
    () =>
      searching
        ? allFiles
        : allFiles.filter((file) => placeOf(driveFileOf(file)?.parentNodeId ?? null) === current),
    [allFiles, searching, placeOf, current],
  );
  const driveFiles = useMemo(() => allFiles.flatMap((file) => driveFileOf(file) ?? []), [allFiles]);
  const itemOf = (node: DraggedNode): DriveItem | undefined =>
    node.kind === 'folder'
      ? folders.find((folder) => folder.nodeId === node.id)
      : driveFiles.find((file) => file.fileId === node.id);
  const dropOn = (node: DraggedNode, target: string | null): void => {
    const item = itemOf(node);
    if (item === undefined || (item.kind === 'folder' && item.nodeId === target)) return;
    void actions.move([item], target).catch(() => undefined);
  };
  const pathText = (parent: string | null): string =>
    ['My Files', ...folderPath(folders, placeOf(parent)).map((folder) => folder.name)].join(' › ');

  const folderCard = (folder: DriveFolder): ReactNode => {
    const extras = folderCardExtras?.(folder);
    const selecting = selection.active && folder.state === 'open';
    const remove = (
      <IconAction
        tooltip="Delete"
        label={`Delete ${folder.name}`}
        icon={IconTrash}
        color="red"
        onClick={() => {
          setDialog({ kind: 'delete', folder });
        }}
      />
    );
    return (
      <FolderCard
        folder={folder}
        onOpen={() => {
          void navigate(folderHref(folder.nodeId));
        }}
        subtitle={searching ? `in ${pathText(folder.parentNodeId)}` : undefined}
        onDropNode={(node) => {
          dropOn(node, folder.nodeId);
        }}
        selected={selecting ? selection.has('folder', folder.nodeId) : undefined}
        onSelect={
          selecting
            ? (on) => {
                selection.toggle('folder', folder.nodeId, on);
              }
            : undefined
        }
        actions={
          folder.state === 'open' ? (
            <>
              <IconAction
                tooltip="Download as ZIP"
                label={`Download ${folder.name} as ZIP`}
                icon={IconFileZip}
                onClick={() => {
                  zip.start(
                    zipPlan({ files: [], folders: [folder] }, { files: driveFiles, folders }, 'My Files'),
                  );
                }}
              />
              {extras}
              <IconAction
                tooltip="Share"
                label={`Share ${folder.name}`}
                icon={IconShare}
                onClick={() => {
                  setDialog({ kind: 'share', folder });
                }}
              />
              {renameAndMove(folder.name, folder)}
              {remove}
            </>
          ) : (
            remove
          )
        }
      />
    );
  };

  const foldersFor = (text: string): DriveFolder[] => {
    const needle = searchForm(text);
    return needle === ''
      ? folders.filter((folder) => placeOf(folder.parentNodeId) === current)
      : folders.filter((folder) => searchForm(folder.name).includes(needle));
  };
  const leading = (text: string) => {
    return [...foldersFor(text)]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((folder) => ({ key: `folder:${folder.nodeId}`, node: folderCard(folder) }));
  };

  const moving = dialog?.kind === 'move' ? dialog.items : [];
  const excluded = useMemo(() => {
    const set = new Set<string>();
    for (const item of moving) {
      if (item.kind !== 'folder') continue;
      set.add(item.nodeId);
      for (const id of foldersBelow(folders, item.nodeId)) set.add(id);
    }
    return set;
  }, [moving, folders]);
  const deleteCounts = dialog?.kind === 'delete' ? countBelow(dialog.folder, folders, driveFiles) : null;
  const renaming = dialog?.kind === 'rename' ? dialog.item : null;
  const onlyMoved = moving.length === 1 ? moving[0] : undefined;

  const dialogs = (
    <>
      <FolderNameDialog
        opened={dialog?.kind === 'new'}
        title="New folder"
        actionLabel="Create"
        onClose={close}
        onSubmit={(name) => actions.create(current, name)}
      />
      <FolderNameDialog
        opened={renaming !== null}
        title={`Rename ${renaming?.name ?? ''}`}
        actionLabel="Rename"
        initialName={renaming?.name ?? ''}
        onClose={close}
        onSubmit={(name) =>
          renaming === null
            ? Promise.resolve()
            : renaming.kind === 'folder'
              ? actions.renameFolder(renaming, name)
              : actions.renameFile(renaming, name)
        }
      />
      <MoveDialog
        opened={dialog?.kind === 'move'}
        subject={onlyMoved?.name ?? `${moving.length} items`}
        folders={folders}
        excluded={excluded}
        current={onlyMoved === undefined ? null : placeOf(onlyMoved.parentNodeId)}
        onClose={close}
        onMove={async (target) => {
          const failed = new Set(await actions.move(moving, target));
          // What moved leaves the selection; what failed stays selected for a retry.
          const moved = moving.filter((item) => !failed.has(item));
          selection.drop(
            moved.flatMap((item) => (item.kind === 'file' ? [item.fileId] : [])),
            moved.flatMap((item) => (item.kind === 'folder' ? [item.nodeId] : [])),
          );
        }}
      />
      <ShareFolderDialog
        folder={dialog?.kind === 'share' ? dialog.folder : null}
        drive={drive}
        onClose={close}
      />
      <DeleteFolderDialog
        folder={dialog?.kind === 'delete' ? dialog.folder : null}
        counts={deleteCounts}
        onClose={close}
        onDelete={(folder) => actions.deleteFolder(folder)}
      />
    </>
  );

  return {
    current,
    folders,
    files,
    onSearchChange: setSearch,
    searching,
    shownFolders: foldersFor(search),
    leading,
    breadcrumbs: <FolderBreadcrumbs path={folderPath(folders, current)} onDropNode={dropOn} />,
    newFolderButton: (
      <Button
        variant="default"
        leftSection={<IconFolderPlus size={18} aria-hidden />}
        disabled={drive.parentFor(current) === null}
        onClick={() => {
          setDialog({ kind: 'new' });
        }}
      >
        New folder
      </Button>
    ),
    fileActions: (file) => {
      const item = driveFileOf(file);
      if (item?.state !== 'open') return null;
      return renameAndMove(file.title, item);
    },
    filePlace: (file) =>
      searching ? (
        <Text size="xs" c="dimmed" truncate="end" data-testid="file-place">
          in {pathText(driveFileOf(file)?.parentNodeId ?? null)}
        </Text>
      ) : null,
    fileDrag: (file) => {
      const item = driveFileOf(file);
      return item?.state === 'open' ? draggableNode({ kind: 'file', id: item.fileId }) : {};
    },
    openMove: (items) => {
      setDialog({ kind: 'move', items });
    },
    dialogs,
    drive,
    actions,
    driveFiles,
    selection,
    zip,
    fileLeading: (file) => {
      const item = driveFileOf(file);
      if (!selection.active || item === undefined) return null;
      return (
        <Checkbox
          aria-label={`Select ${file.title}`}
          mt={12}
          checked={selection.has('file', item.fileId)}
          onChange={(event) => {
            selection.toggle('file', item.fileId, event.currentTarget.checked);
          }}
        />
      );
    },
  };
}

function DeleteFolderDialog({
  folder,
  counts,
  onClose,
  onDelete,
}: {
  folder: DriveFolder | null;
  counts: { files: number; folders: number } | null;
  onClose: () => void;
  onDelete: (folder: DriveFolder) => Promise<void>;
}): ReactElement {
  const [pending, setPending] = useState(false);
  const files = counts?.files ?? 0;
  const subfolders = counts?.folders ?? 0;
  return (
    <ConfirmDialog
      opened={folder !== null}
      title="Delete folder?"
      confirmLabel="Delete"
      pending={pending}
      onClose={onClose}
      onConfirm={() => {
        if (folder === null) return;
        setPending(true);
        onDelete(folder).then(
          () => {
            setPending(false);
            onClose();
          },
          () => {
            setPending(false);
          },
        );
      }}
    >
      <Text>
        “{folder?.name}” and everything in it will be deleted: {files} {files === 1 ? 'file' : 'files'}
        {subfolders > 0 ? ` in ${subfolders + 1} folders` : ''}. This cannot be undone.
      </Text>
    </ConfirmDialog>
  );
}
