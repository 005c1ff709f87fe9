import type { ReactElement } from 'react';
import { fileTypeOf, formatSize } from '@coffer/contracts';
import { Badge, CloseButton, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { uploadRowState } from '../../lib/files/upload-selection';
import type { TransferItem } from '../../lib/transfers';
import { FileTypeIcon } from '../files/FileTypeIcon';
import type { UploadEntry } from './use-upload-list';

/**
 * One file of the upload list (spec section 4): a grey bar with 'Queued', a blue bar with
 * 'Processing', a green bar with the percentage while bytes go out; a cancel action throughout.
 */
export function UploadRow({
  entry,
  transfer,
  onCancel,
}: {
  entry: UploadEntry;
  transfer: TransferItem | undefined;
  onCancel: () => void;
}): ReactElement {
  const state = uploadRowState(transfer, entry.error);
  const { name, size } = entry.file;
  return (
    <Paper withBorder radius="md" p="sm" component="li" aria-label={name} data-upload-phase={state.phase}>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <FileTypeIcon type={fileTypeOf(name)} size={36} />
        <Stack gap={6} flex={1} miw={0}>
          <Group gap="xs" wrap="nowrap" justify="space-between">
            <Text fw={500} truncate="end" title={name}>
              {name}
            </Text>
            {state.badge !== null && (
              <Badge variant="light" color={state.color} flex="none" tt="none">
                {state.badge}
              </Badge>
            )}
          </Group>
          <Text size="xs" c={state.phase === 'failed' ? 'red' : 'dimmed'} data-testid="upload-status">
            {formatSize(size)} · {state.text}
          </Text>
          {state.phase !== 'ready' && (
            <Group gap="sm" wrap="nowrap">
              <Progress
                flex={1}
                size="md"
                radius="xl"
                value={state.barValue}
                // A lighter grey than Mantine's filled gray: a waiting bar should not look heavier than a running one.
                color={state.color === 'gray' ? 'gray.4' : state.color}
                striped={state.phase === 'queued' || state.phase === 'processing'}
                animated={state.phase === 'processing'}
                // Steps of 0.5 % a few times a second: no width transition (see DownloadProgress).
                transitionDuration={0}
                aria-label={`Upload of ${name}`}
              />
              {state.percentLabel !== null && (
                <Text size="xs" fw={600} w={48} ta="right" c="green.8">
                  {state.percentLabel}
                </Text>
              )}
            </Group>
          )}
        </Stack>
        <CloseButton
          aria-label={state.active ? `Cancel upload of ${name}` : `Remove ${name}`}
          onClick={onCancel}
        />
      </Group>
    </Paper>
  );
}
