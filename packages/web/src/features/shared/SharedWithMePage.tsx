import { useMemo, useState, type ReactElement } from 'react';
import { sharedWithMeMessages } from '@coffer/contracts';
import { Button, Card, EmptyState, Group, Stack, Text, Title } from '@mantine/core';
import { IconFolder, IconInbox, IconUser } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '../../app/router/paths';
import {
  defaultFileListControls,
  visibleFiles,
  type FileListControls as Controls,
} from '../../lib/files/file-list';
import { FileCard } from '../files/FileCard';
import { FileListControls } from '../files/FileListControls';
import { FilesGrid, FilesSkeleton } from '../files/FilesGrid';
import { useFileDownloads } from '../files/use-file-download';
import { useSharedFiles } from './use-shared-files';
import { LoadError } from '../../app/layout/LoadError';

/** The sender line of a shared file's card. */
export function SenderLine({ owner }: { owner: string }): ReactElement {
  return (
    <Group gap={4} wrap="nowrap" miw={0}>
      <IconUser size={14} color="var(--mantine-color-dimmed)" aria-hidden />
      <Text size="sm" c="dimmed" truncate="end" title={owner}>
        From {owner}
      </Text>
    </Group>
  );
}

/** Shared With Me (/sharedwithme): files others shared with me, with the same search, filter and sort. */
export function SharedWithMePage(): ReactElement {
  const { files, query } = useSharedFiles();
  const [controls, setControls] = useState<Controls>(defaultFileListControls);
  const visible = useMemo(() => visibleFiles(files, controls), [files, controls]);
  const downloads = useFileDownloads('shared');

  return (
    <Stack gap="lg">
      <div>
        <Title order={1}>Shared With Me</Title>
        <Text c="dimmed">Files your contacts shared with you, encrypted for your key alone.</Text>
      </div>

      <FileListControls
        value={controls}
        onChange={setControls}
        searchPlaceholder="Search by name or sender"
      />

      {query.isPending ? (
        <FilesSkeleton label="Loading shared files" />
      ) : query.isError ? (
        <LoadError
          title="The files shared with you could not be loaded."
          onRetry={() => {
            void query.refetch();
          }}
        />
      ) : visible.length === 0 ? (
        <Card withBorder radius="lg" py="xl">
          <EmptyState
            icon={<IconInbox size={28} aria-hidden />}
            variant="light"
            title={sharedWithMeMessages.emptyTitle}
            description={
              files.length === 0
                ? 'When a contact shares a file with you, it appears here.'
                : 'No shared file matches your search or filters.'
            }
          >
            <EmptyState.Actions>
              <Button
                component={Link}
                to={paths.myFiles}
                variant="default"
                leftSection={<IconFolder size={18} aria-hidden />}
              >
                {sharedWithMeMessages.viewMyFilesButton}
              </Button>
            </EmptyState.Actions>
          </EmptyState>
        </Card>
      ) : (
        <FilesGrid label="Files shared with me">
          {visible.map((file) => (
            <div role="listitem" key={file.id}>
              <FileCard
                file={file}
                titleHref={paths.share(file.id)}
                subtitle={<SenderLine owner={file.owner} />}
                onDownload={() => {
                  downloads.start(file);
                }}
                onCancelDownload={downloads.cancel}
              />
            </div>
          ))}
        </FilesGrid>
      )}
    </Stack>
  );
}
