import type { ReactElement } from 'react';
import { Button, Card, Group, Progress, Text } from '@mantine/core';
import { IconFileZip } from '@tabler/icons-react';
import type { RunningZip } from './use-zip-download';

/** A running ZIP download: its name, "n of m files", a bar, and Cancel. */
export function ZipProgressCard({ zip }: { zip: RunningZip }): ReactElement {
  const progress = zip.progress;
  const percent =
    progress === null || progress.bytes === 0
      ? progress !== null && progress.files > 0
        ? (progress.filesDone / progress.files) * 100
        : 0
      : (progress.bytesDone / progress.bytes) * 100;
  return (
    <Card withBorder radius="lg" padding="sm" role="status" aria-label={`Downloading ${zip.name}`}>
      <Group justify="space-between" gap="sm" wrap="nowrap">
        <Group gap="sm" wrap="nowrap" miw={0}>
          <IconFileZip size={22} aria-hidden />
          <div style={{ minWidth: 0 }}>
            <Text fw={600} truncate="end">
              {zip.name}
            </Text>
            <Text size="sm" c="dimmed" data-testid="zip-progress">
              {progress === null
                ? 'Starting download...'
                : `${Math.min(progress.filesDone + 1, progress.files)} of ${progress.files} files`}
            </Text>
          </div>
        </Group>
        <Button
          variant="default"
          size="xs"
          onClick={() => {
            zip.cancel();
          }}
        >
          Cancel
        </Button>
      </Group>
      <Progress value={percent} mt="xs" size="sm" aria-label="ZIP download progress" />
    </Card>
  );
}
