import type { ReactElement } from 'react';
import { Text } from '@mantine/core';
import type { FileView } from '../../lib/files/file-views';
import type { DriveFileView } from './use-my-drive';

/** Ours (issue 31): a file whose sealed name did not open with its key. */
export const UNREADABLE_NAME_TEXT = 'Its encrypted name does not open: it was changed on the server.';
/** Ours: a file whose signed node record does not match what the server serves. */
export const TAMPERED_NODE_TEXT = 'Not as you signed it: moved, renamed or swapped on the server.';

/** Says when a file of My Files did not open, or its node record does not match (issue 31, point 6). */
export function DriveNodeWarning({ file }: { file: FileView }): ReactElement | null {
  const view = file as Partial<DriveFileView>;
  const text =
    view.drive?.state === 'unreadable'
      ? UNREADABLE_NAME_TEXT
      : view.record === 'tampered'
        ? TAMPERED_NODE_TEXT
        : null;
  if (text === null) return null;
  return (
    <Text size="sm" c="red" role="status" data-testid="drive-node-warning" title={view.drive?.problem}>
      {text}
    </Text>
  );
}
