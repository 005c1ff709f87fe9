import { useEffect, useState, type ReactElement, type ReactNode } from 'react';
import { sharedWithMeMessages, type Folder } from '@coffer/contracts';
import { Button, Checkbox, Text } from '@mantine/core';
import { IconFolder, IconInbox } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { searchForm } from '../../lib/drive';
import { FolderCard } from '../folders/FolderCard';
import { SharedFolderView, sharedFolderHref } from './SharedFolderView';
import { useSharedFolders } from './use-shared-folders';
import { SenderLine } from './SenderLine';
import { paths } from '../../lib/navigation/paths';
import { FileCard } from '../files/FileCard';
import { FileListScreen } from '../files/FileListScreen';
import { useFileDownloads } from '../files/use-file-download';
import { useExplainSharedFailure, useSharedFiles } from './use-shared-files';
import type { SharedFileView } from '../../lib/files/file-views';
import type { RawDownloadMetadata } from '../../lib/transfers';
import { snackbar } from '../../lib/snackbar';
import { CHECK_FAILED_TEXT, SharedFileSignature } from './SharedFileSignature';
import { isShareGone, NO_LONGER_SHARED_TEXT } from './no-longer-shared';
import { useSharedFileCheck } from './use-shared-file-check';
import { useSelection } from '../folders/use-selection';
import { SelectModeButton, SelectionZipBar } from '../folders/SelectionControls';
import { ZipProgressCard } from '../folders/ZipProgressCard';
import { useSharedZip } from './use-shared-zip';

/** Shared With Me (/sharedwithme): files others shared with me, with the same search, filter and sort. */
export function SharedWithMePage(): ReactElement {
  const { files, query } = useSharedFiles();
  const downloads = useFileDownloads('shared', useExplainSharedFailure(query));
  // Issue 31: folders shared with me, before the files; ?folder=<nodeId> opens one.
  const sharedFolders = useSharedFolders();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const openFolder = params.get('folder');
  const received = sharedFolders.data ?? [];
  // Issue 31: select shared files and folders, and download them as one ZIP.
  const selection = useSelection();
  const zip = useSharedZip();
  /** A folder whose grant checked out: it can be selected (its tree goes into the ZIP). */
  const selectableFolder = (folder: (typeof received)[number]): boolean =>
    folder.ok && folder.ownerSigningKey !== undefined;
  if (openFolder !== null) {
    const folder = received.find((item) => item.item.nodeId === openFolder);
    if (folder !== undefined) return <SharedFolderView folder={folder} inside={params.get('in')} />;
    if (sharedFolders.isPending) return <Text c="dimmed">Opening the folder…</Text>;
  }

  return (
    <FileListScreen
      headerAside={<SelectModeButton selection={selection} />}
      notice={
        <>
          {zip.running !== null && <ZipProgressCard zip={zip.running} />}
          {selection.active && (
            <SelectionZipBar
              selection={selection}
              selectable={{
                files: files.map((file) => file.id),
                folders: received.filter(selectableFolder).map((folder) => folder.item.nodeId),
              }}
              zipRunning={zip.running !== null || zip.preparing}
              onZip={() => {
                zip.start(
                  files.filter((file) => selection.files.has(file.id)),
                  received.filter((folder) => selection.folders.has(folder.item.nodeId)),
                );
              }}
            />
          )}
        </>
      }
      leading={(search) => {
        const needle = searchForm(search);
        return received
          .filter(
            (folder) =>
              needle === '' ||
              searchForm(folder.ok ? folder.name : '').includes(needle) ||
              searchForm(folder.item.owner).includes(needle),
          )
          .map((folder) => ({
            key: `folder:${folder.item.nodeId}`,
            node: (
              <FolderCard
                folder={{
                  kind: 'folder',
                  nodeId: folder.item.nodeId,
                  parentNodeId: null,
                  name: folder.ok ? folder.name : 'Unverified folder',
                  state: folder.ok ? 'open' : 'unreadable',
                  ...(folder.ok ? {} : { problem: folder.problem }),
                  createdAt: folder.item.sharedAt,
                  updatedAt: folder.item.sharedAt,
                  item: {} as Folder,
                }}
                {...(selection.active && selectableFolder(folder)
                  ? {
                      selected: selection.has('folder', folder.item.nodeId),
                      onSelect: (on: boolean) => {
                        selection.toggle('folder', folder.item.nodeId, on);
                      },
                    }
                  : {})}
                subtitle={
                  folder.ok
                    ? `From ${folder.item.owner}`
                    : `From ${folder.item.owner}: not verified (${folder.problem})`
                }
                onOpen={() => {
                  void navigate(sharedFolderHref(folder.item.nodeId));
                }}
              />
            ),
          }));
      }}
      title="Shared With Me"
      description="Files your contacts shared with you, encrypted for your key alone."
      files={files}
      query={query}
      searchPlaceholder="Search by name or sender"
      loadingLabel="Loading shared files"
      listLabel="Files shared with me"
      loadErrorTitle="The files shared with you could not be loaded."
      empty={(all) => ({
        icon: <IconInbox size={28} aria-hidden />,
        title: all === 0 ? sharedWithMeMessages.emptyTitle : sharedWithMeMessages.noneFound,
        description:
          all === 0
            ? 'When a contact shares a file with you, it appears here.'
            : 'No shared file matches your search or filters.',
        action: (
          <Button
            component={Link}
            to={paths.myFiles}
            variant="default"
            leftSection={<IconFolder size={18} aria-hidden />}
          >
            {sharedWithMeMessages.viewMyFilesButton}
          </Button>
        ),
      })}
      card={(file) => (
        <SharedFileCard
          file={file}
          subtitle={<SenderLine owner={file.owner} />}
          leading={
            selection.active ? (
              <Checkbox
                aria-label={`Select ${file.title}`}
                mt={12}
                checked={selection.has('file', file.id)}
                onChange={(event) => {
                  selection.toggle('file', file.id, event.currentTarget.checked);
                }}
              />
            ) : undefined
          }
          onDownload={(checked) => {
            downloads.start(file, checked);
          }}
          onCancelDownload={downloads.cancel}
        />
      )}
    />
  );
}

/**
 * A shared file's card with who signed it; a refused share is not downloaded (issue 13). A click
 * while the check still runs waits for it (the button shows it is busy), then downloads or says
 * why not: the check's verdict, never a "could not check" for a check that had not finished.
 */
function SharedFileCard({
  file,
  subtitle,
  leading,
  onDownload,
  onCancelDownload,
}: {
  file: SharedFileView;
  subtitle: ReactNode;
  /** In selection mode: its checkbox. */
  leading?: ReactNode;
  onDownload: (checked: RawDownloadMetadata) => void;
  onCancelDownload: (transferId: string) => void;
}): ReactElement {
  const check = useSharedFileCheck(file.id, file.owner);
  const checking = check.isPending && check.fetchStatus === 'fetching';
  const [clickedWhileChecking, setClickedWhileChecking] = useState(false);
  useEffect(() => {
    if (!clickedWhileChecking || checking) return;
    setClickedWhileChecking(false);
    // Exactly the answer that was checked, never a fresh one (issue 13).
    if (check.data?.canOpen === true) onDownload({ source: 'shared', shared: check.data.metadata });
    else if (isShareGone(check.error)) snackbar.danger(NO_LONGER_SHARED_TEXT);
    else snackbar.danger(check.data?.text ?? CHECK_FAILED_TEXT);
  }, [clickedWhileChecking, checking, check.data, check.error, onDownload]);
  return (
    <FileCard
      file={file}
      titleHref={paths.share(file.id)}
      subtitle={subtitle}
      leading={leading}
      downloadWaiting={clickedWhileChecking}
      onDownload={() => {
        setClickedWhileChecking(true);
      }}
      onCancelDownload={onCancelDownload}
      footer={<SharedFileSignature check={check} compact />}
    />
  );
}
