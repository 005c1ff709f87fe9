import { memo, type ReactElement } from 'react';
import { fileTypeOf, formatDateTime, formatSize, uploadMessages } from '@coffer/contracts';
import { Badge, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { FileTypeIcon } from '../files/FileTypeIcon';
import { uploadStatusLabels, useRecentUploads } from './use-recent-uploads';

/**
 * The recent uploads of this account (GET /users/uploads?limit=20), newest first, each with its size,
 * date and how it ended. Refreshed after every upload of this page, since uploads invalidate the file keys.
 * Memoized: New Upload re-renders on every step of a transfer (each step's render of the page took 4–10 ms
 * of the main thread on a busy core: docs/transfers.md, "One render per task"), and these rows do not
 * change with it.
 */
export const RecentUploads = memo(function RecentUploads(): ReactElement {
  const query = useRecentUploads(true);
  const uploads = query.uploads;
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="recent-uploads-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="recent-uploads-title">
          Recent uploads
        </Title>
        {query.isPending ? (
          <Skeleton height={40} aria-label="Loading recent uploads" />
        ) : query.isError ? (
          <Text c="red.8" role="status">
            {uploadMessages.loadFailed}
          </Text>
        ) : uploads.length === 0 ? (
          <Text c="dimmed" role="status">
            {uploadMessages.noneFound}
          </Text>
        ) : (
          <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
            {uploads.map((upload) => {
              const status = uploadStatusLabels[upload.status];
              return (
                // No aria-label: the rows of files being uploaded are named by file name, and a
                // finished upload must not be mistaken for one of them.
                <Group key={upload.uploadId} component="li" gap="sm" wrap="nowrap">
                  <FileTypeIcon type={fileTypeOf(upload.fileName)} size={32} />
                  <div style={{ minWidth: 0, flex: 1 }}>
                    <Text truncate="end" title={upload.fileName}>
                      {upload.fileName}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {formatSize(upload.size)} · {formatDateTime(upload.createdAt)}
                    </Text>
                  </div>
                  <Badge variant="light" color={status.color} flex="none" tt="none">
                    {status.label}
                  </Badge>
                </Group>
              );
            })}
          </Stack>
        )}
      </Stack>
    </Card>
  );
});
