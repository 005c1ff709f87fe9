import { useCallback, useMemo, type ReactElement } from 'react';
import type { Folder } from '@coffer/contracts';
import { Alert, Anchor, Breadcrumbs, Button, Checkbox, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconFileZip } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { useApiClient } from '../../lib/api/context';
import { seg } from '../../lib/api/http';
import { getSharedChunkCipher } from '../../lib/crypto-worker';
import { folderPath, type DriveFile, type DriveFolder } from '../../lib/drive';
import { paths } from '../../lib/navigation/paths';
import { snackbar } from '../../lib/snackbar';
import { downloadFile, preferredSaveMethod, TransferAbortedError } from '../../lib/transfers';
import { CardGrid } from '../../ui/CardGrid';
import { useSelection } from '../folders/use-selection';
import { SelectModeButton, SelectionZipBar } from '../folders/SelectionControls';
import { LoadError } from '../../ui/LoadError';
import { FileCard } from '../files/FileCard';
import { toDriveFileView } from '../files/use-my-drive';
import { FolderCard } from '../folders/FolderCard';
import { ZipProgressCard } from '../folders/ZipProgressCard';
import { useZipDownload } from '../folders/use-zip-download';
import { zipPlan } from '../folders/zip-plan';
import { SenderLine } from './SenderLine';
import { useSharedFolderTree, type ReceivedFolder } from './use-shared-folders';

/** /sharedwithme?folder=<shared folder>&in=<folder below it>. */
export function sharedFolderHref(root: string, inside?: string | null): string {
  const base = `${paths.sharedWithMe}?folder=${encodeURIComponent(root)}`;
  return inside === undefined || inside === null || inside === root
    ? base
    : `${base}&in=${encodeURIComponent(inside)}`;
}

/**
 * A folder someone shared with me (issue 31): its tree opened with the folder key, every node
 * checked against the owner's records; a node that does not check out (injected, moved or altered
 * by the server) is shown as such and not opened. Files download through the folder share, one by
 * one or the folder as a ZIP.
 */
export function SharedFolderView({
  folder,
  inside,
}: {
  folder: ReceivedFolder;
  /** A folder below the shared one, or null for the shared folder itself. */
  inside: string | null;
}): ReactElement {
  const api = useApiClient();
  const navigate = useNavigate();
  const tree = useSharedFolderTree(folder);
  const rootId = folder.item.nodeId;
  const rootName = folder.ok ? folder.name : 'Shared folder';
  const contentPath = useCallback(
    (file: DriveFile) => `/users/folders/shared/${seg(rootId)}/files/${seg(file.fileId)}/download`,
    [rootId],
  );
  const zip = useZipDownload(contentPath);
  const selection = useSelection();

  // The shared folder as the top of its own tree (for paths and the ZIP).
  const root: DriveFolder = useMemo(
    () => ({
      kind: 'folder',
      nodeId: rootId,
      parentNodeId: null,
      name: rootName,
      state: 'open',
      createdAt: folder.item.sharedAt,
      updatedAt: folder.item.sharedAt,
      item: {} as Folder,
    }),
    [rootId, rootName, folder.item.sharedAt],
  );
  const folders = useMemo(() => [root, ...(tree.data?.folders ?? [])], [root, tree.data]);
  const files = tree.data?.files ?? [];
  const current = inside !== null && folders.some((item) => item.nodeId === inside) ? inside : rootId;
  const trail = folderPath(folders, current);

  const download = (file: DriveFile): void => {
    const fileKey = file.fileKey;
    if (fileKey === undefined) {
      snackbar.danger('This file cannot be opened: it does not check out as its owner’s.');
      return;
    }
    const done = downloadFile({
      api,
      target: { fileId: file.fileId, source: 'shared', fileName: file.name, size: file.size },
      privateKey: null,
      cipher: getSharedChunkCipher(),
      signal: new AbortController().signal,
      onProgress: () => undefined,
      saveMethod: preferredSaveMethod(),
      opened: {
        fileKey,
        metadata: {
          name: file.name,
          contentType: file.contentType,
          size: file.size,
          encryptedFileKey: '',
          downloadPath: contentPath(file),
        },
      },
    });
    done.then(
      () => snackbar.success('File downloaded successfully!'),
      (error: unknown) => {
        if (!(error instanceof TransferAbortedError)) snackbar.danger('Download failed');
      },
    );
  };

  const heading = (
    <Stack gap={4}>
      <Title order={1}>{rootName}</Title>
      <SenderLine owner={folder.item.owner} />
    </Stack>
  );

  // A folder this browser will not open: its heading and why.
  const refused = (title: string, why: string): ReactElement => (
    <Stack gap="lg">
      {heading}
      <Alert color="red" icon={<IconAlertTriangle size={20} aria-hidden />} title={title}>
        {why}
      </Alert>
    </Stack>
  );
  if (!folder.ok)
    return refused('This folder cannot be opened', `Coffer could not verify this share: ${folder.problem}.`);
  if (folder.ownerSigningKey === undefined)
    return refused(
      'This folder cannot be verified',
      `The key of ${folder.item.owner} has changed or cannot be checked: accept their new safety number on the Contacts page first.`,
    );

  const subfolders = folders.filter(
    (item) => item.nodeId !== rootId && (item.parentNodeId ?? rootId) === current,
  );
  const here = files.filter((file) => (file.parentNodeId ?? rootId) === current);
  const currentFolder = folders.find((item) => item.nodeId === current) ?? root;
  const selectableFolders = subfolders.filter((item) => item.state === 'open');
  const selectableFiles = here.filter((file) => file.state === 'open');

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        {heading}
        <Group gap="sm">
          <SelectModeButton selection={selection} />
          <Button
            leftSection={<IconFileZip size={18} aria-hidden />}
            disabled={zip.running !== null || tree.data === undefined}
            onClick={() => {
              zip.start(zipPlan({ files: [], folders: [currentFolder] }, { files, folders }, rootName));
            }}
          >
            Download as ZIP
          </Button>
        </Group>
      </Group>
      <nav aria-label="Folder path">
        <Breadcrumbs separator="›">
          <Anchor component={Link} to={paths.sharedWithMe}>
            Shared With Me
          </Anchor>
          {trail.map((item, index) =>
            index === trail.length - 1 ? (
              <Text key={item.nodeId} fw={600} aria-current="page" truncate="end" maw={240}>
                {item.name}
              </Text>
            ) : (
              <Anchor
                key={item.nodeId}
                component={Link}
                to={sharedFolderHref(rootId, item.nodeId)}
                truncate="end"
                maw={200}
              >
                {item.name}
              </Anchor>
            ),
          )}
        </Breadcrumbs>
      </nav>
      {zip.running !== null && <ZipProgressCard zip={zip.running} />}
      {selection.active && (
        <SelectionZipBar
          selection={selection}
          selectable={{
            files: selectableFiles.map((file) => file.fileId),
            folders: selectableFolders.map((item) => item.nodeId),
          }}
          zipRunning={zip.running !== null}
          onZip={() => {
            zip.start(
              zipPlan(
                {
                  files: files.filter((file) => selection.files.has(file.fileId)),
                  folders: folders.filter((item) => selection.folders.has(item.nodeId)),
                },
                { files, folders },
                rootName,
              ),
            );
          }}
        />
      )}
      {tree.isError ? (
        <LoadError
          title="This folder could not be loaded."
          onRetry={() => {
            void tree.refetch();
          }}
        />
      ) : tree.isPending ? (
        <Text c="dimmed">Opening the folder…</Text>
      ) : subfolders.length + here.length === 0 ? (
        <Text c="dimmed">This folder is empty.</Text>
      ) : (
        <CardGrid role="list" aria-label="Shared folder contents">
          {subfolders.map((item) => (
            <div role="listitem" key={`folder:${item.nodeId}`}>
              <FolderCard
                folder={item}
                {...(selection.active && item.state === 'open'
                  ? {
                      selected: selection.has('folder', item.nodeId),
                      onSelect: (on: boolean) => {
                        selection.toggle('folder', item.nodeId, on);
                      },
                    }
                  : {})}
                subtitle={
                  item.state === 'unreadable'
                    ? `Not opened: ${item.problem ?? 'it does not check out'}`
                    : undefined
                }
                onOpen={() => {
                  void navigate(sharedFolderHref(rootId, item.nodeId));
                }}
              />
            </div>
          ))}
          {here.map((file) => (
            <div role="listitem" key={file.fileId}>
              <FileCard
                file={toDriveFileView(file)}
                leading={
                  selection.active && file.state === 'open' ? (
                    <Checkbox
                      aria-label={`Select ${file.name}`}
                      mt={12}
                      checked={selection.has('file', file.fileId)}
                      onChange={(event) => {
                        selection.toggle('file', file.fileId, event.currentTarget.checked);
                      }}
                    />
                  ) : undefined
                }
                onDownload={() => {
                  download(file);
                }}
                onCancelDownload={() => undefined}
                footer={
                  file.state === 'unreadable' ? (
                    <Text size="sm" c="red" data-testid="node-refused">
                      Not opened: {file.problem ?? 'it does not check out as its owner’s'}
                    </Text>
                  ) : undefined
                }
              />
            </div>
          ))}
        </CardGrid>
      )}
    </Stack>
  );
}
