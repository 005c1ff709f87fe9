import type { ReactElement } from 'react';
import { navigationMessages } from '@coffer/contracts';
import { Text } from '@mantine/core';
import { ConfirmDialog } from '../../ui/ConfirmDialog';

interface LeaveDialogProps {
  aborting: boolean;
  onStay: () => void;
  onLeave: () => void;
}

/**
 * The confirmation of leaving a route while files move. Its own chunk: the dialog component is not
 * part of the first page, which never has a transfer running.
 */
export function LeaveDialog({ aborting, onStay, onLeave }: LeaveDialogProps): ReactElement {
  return (
    <ConfirmDialog
      opened
      onClose={onStay}
      title="Leave this page?"
      cancelLabel="Stay"
      confirmLabel="Leave"
      pending={aborting}
      onConfirm={onLeave}
    >
      <Text>{navigationMessages.leaveConfirm}</Text>
    </ConfirmDialog>
  );
}
