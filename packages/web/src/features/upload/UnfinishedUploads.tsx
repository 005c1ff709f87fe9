import type { ReactElement } from 'react';
import { formatSize } from '@coffer/contracts';
import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { ageText, useUnfinishedUploads } from './use-unfinished-uploads';

/**
 * The account's unfinished large uploads, each with its age and a Cancel button. Hidden while this
 * page is uploading: its own uploads are not unfinished, just under way.
 */
export function UnfinishedUploads({ busy }: { busy: boolean }): ReactElement | null {
  const { uploads, cancel, cancelling } = useUnfinishedUploads(!busy);
  if (busy || uploads.length === 0) return null;
  return (
    <Card withBorder padding="md" component="section" aria-label="Unfinished uploads">
      <Stack gap="xs">
        <Text fw={600}>Unfinished uploads</Text>
        <Text size="sm" c="dimmed">
          These uploads stopped before they were complete. Cancel one to free its storage and let a new large
          upload start.
        </Text>
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {uploads.map((upload) => (
            <Group
              key={upload.uploadId}
              component="li"
              justify="space-between"
              wrap="nowrap"
              aria-label={`Unfinished upload ${upload.fileName}`}
            >
              <div style={{ minWidth: 0 }}>
                <Text truncate="end">{upload.fileName}</Text>
                <Text size="xs" c="dimmed">
                  {formatSize(upload.size)} · {upload.completedParts} of {upload.parts} parts ·{' '}
                  {ageText(upload.createdAt)}
                </Text>
              </div>
              <Button
                variant="default"
                color="red"
                loading={cancelling === upload.uploadId}
                onClick={() => {
                  cancel(upload.uploadId);
                }}
              >
                Cancel
              </Button>
            </Group>
          ))}
        </Stack>
      </Stack>
    </Card>
  );
}
