import { useId, type ReactElement, type ReactNode } from 'react';
import { Anchor, Button, Flex, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconDownload, IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { FileView } from '../../lib/files/file-views';
import { ItemCard } from '../../ui/ItemCard';
import { DownloadProgress } from './DownloadProgress';
import { FileTypeIcon } from './FileTypeIcon';
import { useActiveDownload } from './use-file-download';

interface FileCardProps {
  file: FileView;
  /** A line under the title (e.g. the sender of a shared file). */
  subtitle?: ReactNode;
  /** Where the title links to (the received-file page of a shared file). */
  titleHref?: string;
  onDownload: () => void;
  /** The download was asked for and waits for something first (a shared file's check): busy button. */
  downloadWaiting?: boolean;
  onCancelDownload: (transferId: string) => void;
  /** Icon actions at the top right (share, delete). */
  actions?: ReactNode;
  /** Below the actions (who the file is shared with). */
  footer?: ReactNode;
  /** Before the type icon (a selection checkbox). */
  leading?: ReactNode;
}

/** One file in a grid: type icon and colour, title, size and date, download and the page's actions. */
export function FileCard({
  file,
  subtitle,
  titleHref,
  onDownload,
  downloadWaiting = false,
  onCancelDownload,
  actions,
  footer,
  leading,
}: FileCardProps): ReactElement {
  const titleId = useId();
  // Subscribed here, not on the page: a progress step re-renders this card only.
  const download = useActiveDownload(file.id);
  return (
    <ItemCard
      titleId={titleId}
      data-file-id={file.id}
      leading={leading}
      icon={<FileTypeIcon type={file.fileType} />}
      main={
        <>
          {titleHref === undefined ? (
            <Text id={titleId} fw={600} truncate="end" title={file.title} data-testid="file-title">
              {file.title}
            </Text>
          ) : (
            <Anchor
              id={titleId}
              component={Link}
              to={titleHref}
              fw={600}
              c="inherit"
              display="block"
              truncate="end"
              title={file.title}
              data-testid="file-title"
            >
              {file.title}
            </Anchor>
          )}
          {subtitle}
          {/* No separator between size and date: on a narrow card they wrap cleanly onto two lines. */}
          <Flex columnGap="md" rowGap={0} wrap="wrap" align="center" mt={2}>
            <Text size="sm" c="dimmed" data-testid="file-size">
              {file.size}
            </Text>
            <Group gap={6} wrap="nowrap">
              <Text size="sm" c="dimmed" data-testid="file-datetime">
                {file.datetime}
              </Text>
              {file.isEncrypted && (
                <Tooltip label="End-to-end encrypted" withArrow>
                  <IconLock size={14} color="var(--mantine-color-dimmed)" aria-label="End-to-end encrypted" />
                </Tooltip>
              )}
            </Group>
          </Flex>
        </>
      }
      actions={actions}
    >
      <Stack gap="sm">
        {download === undefined ? (
          <Button
            variant="light"
            size="xs"
            leftSection={<IconDownload size={16} aria-hidden />}
            aria-label={`Download ${file.title}`}
            loading={downloadWaiting}
            onClick={onDownload}
            style={{ alignSelf: 'flex-start' }}
          >
            Download
          </Button>
        ) : (
          <DownloadProgress
            item={download}
            onCancel={() => {
              onCancelDownload(download.id);
            }}
          />
        )}
        {footer}
      </Stack>
    </ItemCard>
  );
}
