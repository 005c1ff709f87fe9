import type { ReactElement } from 'react';
import { CloseButton, Group, Progress, Stack, Text } from '@mantine/core';
import type { TransferItem } from '../../lib/transfers';

/**
 * A card's running download (spec section 4): 'Starting download...' with a progress bar, then the
 * engine's status texts ('Decrypting chunk i of n...', 'Downloading and decrypting file').
 */
export function DownloadProgress({
  item,
  onCancel,
}: {
  /** A transfer's name, status text and percent (a card's transfer item, or a link page's file). */
  item: Pick<TransferItem, 'fileName' | 'statusText' | 'progress'>;
  onCancel: () => void;
}): ReactElement {
  const started = item.progress > 0;
  return (
    <Stack gap={6} data-download-state="active">
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm" c="dimmed" truncate="end" aria-live="polite">
          {item.statusText}
        </Text>
        <Group gap={6} wrap="nowrap">
          {started && (
            <Text size="xs" fw={600} c="dimmed">
              {item.progress}%
            </Text>
          )}
          <CloseButton size="sm" aria-label={`Cancel download of ${item.fileName}`} onClick={onCancel} />
        </Group>
      </Group>
      <Progress
        aria-label={`Download of ${item.fileName}`}
        value={started ? item.progress : 100}
        striped={!started}
        animated={!started}
        size="sm"
        // The bar moves in 0.5 % steps a few times a second: a width transition on each step would
        // keep the page laying out and painting for the whole download (CPU the decryption needs).
        transitionDuration={0}
      />
    </Stack>
  );
}
