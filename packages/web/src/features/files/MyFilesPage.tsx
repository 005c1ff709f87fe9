import { useState, type ReactElement } from 'react';
import { myFilesMessages, shareMessages } from '@coffer/contracts';
import { Button, Group } from '@mantine/core';
import { IconCloudUpload, IconFolderOff, IconLink, IconShare, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '../../lib/navigation/paths';
import type { FileView } from '../../lib/files/file-views';
import { snackbar } from '../../lib/snackbar';
import { FileLinksDialog } from '../links/FileLinksDialog';
import { ShareFilesModal } from '../share/ShareFilesModal';
import { DeleteFileModal } from './DeleteFileModal';
import { DriveNodeWarning } from './DriveNodeWarning';
import { FileCard } from './FileCard';
import { OwnFileSignature } from './OwnFileSignature';
import { FileListScreen } from './FileListScreen';
import { SharedWithList } from './SharedWithList';
import { useFileDownloads } from './use-file-download';
import { useMyFiles } from './use-files';
import { IconAction } from '../../ui/IconAction';
import { useFolderView } from '../folders/use-folder-view';
import { useBulkActions } from '../folders/use-bulk-actions';
import { uploadHref } from '../folders/folder-href';

/** My Files (/myfiles): search, type filter, sort; download, delete, share and revoke per file. */
export function MyFilesPage(): ReactElement {
  const { files: allFiles, query } = useMyFiles();
  // Folders (issue 31): /myfiles?folder=<nodeId>; the files listed are that folder's (or all while searching).
  const folders = useFolderView(allFiles);
  const files = folders.files;
  const downloads = useFileDownloads('own');
  const [shareTarget, setShareTarget] = useState<{ fileIds: readonly string[] } | null>(null);
  const [deleteTarget, setDeleteTarget] = useState<FileView | null>(null);
  const [deleteOpened, setDeleteOpened] = useState(false);
  const [linksTarget, setLinksTarget] = useState<FileView | null>(null);
  const bulk = useBulkActions(folders, (fileIds) => {
    setShareTarget({ fileIds });
  });

  const openShare = (file: FileView): void => {
    if (!file.isEncrypted) {
      snackbar.danger(shareMessages.notEncrypted);
      return;
    }
    setShareTarget({ fileIds: [file.id] });
  };

  const uploadButton = (
    // From inside a folder, New Upload uploads into it (/new?folder=<nodeId>).
    <Button
      component={Link}
      to={uploadHref(folders.current)}
      leftSection={<IconCloudUpload size={18} aria-hidden />}
    >
      {myFilesMessages.uploadButton}
    </Button>
  );

  return (
    <>
      <FileListScreen
        title="My Files"
        description="Encrypted in your browser before upload. Only you and the people you share with can open them."
        headerAside={
          <Group gap="sm">
            {/* Links (issue 30) are not in the spec's sidebar: their screen is reached from here. */}
            <Button
              component={Link}
              to={paths.links}
              variant="default"
              leftSection={<IconLink size={18} aria-hidden />}
            >
              Links
            </Button>
            {bulk.selectButton}
            {folders.newFolderButton}
            {uploadButton}
          </Group>
        }
        notice={
          <>
            {folders.breadcrumbs}
            {bulk.bar}
          </>
        }
        leading={folders.leading}
        onSearchChange={folders.onSearchChange}
        files={files}
        query={query}
        loadingLabel="Loading files"
        listLabel="My files"
        loadErrorTitle="Your files could not be loaded."
        empty={() => ({
          icon: <IconFolderOff size={28} aria-hidden />,
          title: myFilesMessages.emptyTitle,
          description: myFilesMessages.emptyHint,
          action: uploadButton,
        })}
        card={(file) => (
          <div style={{ height: '100%' }} {...folders.fileDrag(file)}>
            <FileCard
              file={file}
              leading={folders.fileLeading(file)}
              onDownload={() => {
                downloads.start(file);
              }}
              onCancelDownload={downloads.cancel}
              actions={
                <>
                  {folders.fileActions(file)}
                  <IconAction
                    tooltip="Share"
                    label={`Share ${file.title}`}
                    icon={IconShare}
                    onClick={() => {
                      openShare(file);
                    }}
                  />
                  <IconAction
                    tooltip="Links"
                    label={`Links to ${file.title}`}
                    icon={IconLink}
                    onClick={() => {
                      if (file.isEncrypted) setLinksTarget(file);
                      else snackbar.danger(shareMessages.notEncrypted);
                    }}
                  />
                  <IconAction
                    tooltip="Delete"
                    label={`Delete ${file.title}`}
                    icon={IconTrash}
                    color="red"
                    onClick={() => {
                      setDeleteTarget(file);
                      setDeleteOpened(true);
                    }}
                  />
                </>
              }
              footer={
                <>
                  {folders.filePlace(file)}
                  <DriveNodeWarning file={file} />
                  <OwnFileSignature file={file} />
                  <SharedWithList file={file} />
                </>
              }
            />
          </div>
        )}
      />
      {folders.dialogs}
      {bulk.dialogs}

      <ShareFilesModal
        opened={shareTarget !== null}
        onClose={() => {
          setShareTarget(null);
        }}
        initialFileIds={shareTarget?.fileIds ?? []}
      />
      <FileLinksDialog
        file={
          linksTarget === null
            ? null
            : { fileId: linksTarget.id, name: linksTarget.title, contentType: linksTarget.contentType }
        }
        onClose={() => {
          setLinksTarget(null);
        }}
      />
      <DeleteFileModal
        opened={deleteOpened}
        file={deleteTarget}
        onClose={() => {
          setDeleteOpened(false);
        }}
      />
    </>
  );
}
