import type { ReactElement } from 'react';
import { fileNotFoundText, receivedFileMessages } from '@coffer/contracts';
import { Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconFileUnknown, IconInbox } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { paths } from '../../lib/navigation/paths';
import type { SharedFileView } from '../../lib/files/file-views';
import { DownloadProgress } from '../files/DownloadProgress';
import { FileTypeIcon } from '../files/FileTypeIcon';
import { useActiveDownload, useFileDownloads } from '../files/use-file-download';
import { useSharedFiles } from '../shared/use-shared-files';
import { LinkButton } from '../../ui/LinkButton';
import { LoadError } from '../../ui/LoadError';
import { SharedFileSignature } from '../shared/SharedFileSignature';
import { useSharedFileCheck } from '../shared/use-shared-file-check';

/** Received-file page (/share/{id}): who sent the file, its title, upload date and size, and Download. */
export function FilesReceivedPage(): ReactElement {
  const { id = '' } = useParams();
  const { files, query } = useSharedFiles();
  const file = files.find((candidate) => candidate.id === id);

  return (
    <Stack gap="lg" maw={720}>
      <Title order={1}>{receivedFileMessages.title}</Title>
      {query.isPending ? (
        <Card withBorder radius="lg" padding="xl" aria-busy="true" aria-label="Loading file">
          <Stack gap="sm">
            <Skeleton height={16} width="40%" />
            <Skeleton height={22} width="70%" />
            <Skeleton height={14} width="50%" />
          </Stack>
        </Card>
      ) : query.isError ? (
        <LoadError
          title="The files shared with you could not be loaded."
          onRetry={() => {
            void query.refetch();
          }}
        />
      ) : file === undefined ? (
        <Card withBorder radius="lg" padding="xl">
          <Stack gap="md" align="flex-start">
            <Group gap="sm" wrap="nowrap">
              <IconFileUnknown size={28} color="var(--mantine-color-dimmed)" aria-hidden />
              <Text fw={600}>{fileNotFoundText(id)}</Text>
            </Group>
            <Text c="dimmed" size="sm">
              It may have been deleted, or its owner stopped sharing it with you.
            </Text>
            <LinkButton to={paths.sharedWithMe} icon={IconInbox} variant="default">
              Shared With Me
            </LinkButton>
          </Stack>
        </Card>
      ) : (
        <ReceivedFile file={file} />
      )}
    </Stack>
  );
}

function Detail({ label, value }: { label: string; value: string }): ReactElement {
  return (
    <Stack gap={2} miw={0}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" lts={0.3}>
        {label}
      </Text>
      <Text style={{ overflowWrap: 'anywhere' }}>{value}</Text>
    </Stack>
  );
}

function ReceivedFile({ file }: { file: SharedFileView }): ReactElement {
  const downloads = useFileDownloads('shared');
  const active = useActiveDownload(file.id);
  const check = useSharedFileCheck(file.id, file.owner);
  // Offered only once the owner's signature checked out, or the share is a legacy unsigned one.
  const checked = check.data?.canOpen === true ? check.data.metadata : null;
  return (
    <Card withBorder radius="lg" padding="xl" component="article" aria-label={file.title}>
      <Stack gap="lg">
        <Group gap="md" wrap="nowrap" align="center">
          <FileTypeIcon type={file.fileType} size={52} />
          <Stack gap={2} miw={0}>
            <Text size="xs" c="dimmed" fw={600} tt="uppercase" lts={0.3}>
              Title
            </Text>
            <Text fw={600} size="lg" style={{ overflowWrap: 'anywhere' }}>
              {file.title}
            </Text>
          </Stack>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg" verticalSpacing="md">
          <Detail label="From" value={file.owner} />
          <Detail label="Uploaded" value={file.datetime} />
          <Detail label="Size" value={file.size} />
        </SimpleGrid>
        <SharedFileSignature check={check} />
        {check.data?.askFirst === true && (
          <Text size="sm" c="dimmed">
            This file has no signature (files shared before signatures have none). Open it only if you
            expected it from {file.owner}.
          </Text>
        )}
        <Text size="sm" c="dimmed">
          Encrypted for your key alone: it is decrypted in this browser as it downloads.
        </Text>
        {checked === null ? null : active === undefined ? (
          <Button
            leftSection={<IconDownload size={18} aria-hidden />}
            onClick={() => {
              // Exactly the answer that was checked, never a fresh one (issue 13).
              downloads.start(file, { source: 'shared', shared: checked });
            }}
            style={{ alignSelf: 'flex-start' }}
          >
            {receivedFileMessages.downloadButton}
          </Button>
        ) : (
          <DownloadProgress
            item={active}
            onCancel={() => {
              downloads.cancel(active.id);
            }}
          />
        )}
      </Stack>
    </Card>
  );
}
