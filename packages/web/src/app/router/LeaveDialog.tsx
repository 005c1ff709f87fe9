import type { ReactElement } from 'react';
import { navigationMessages } from '@coffer/contracts';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';

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
    <Modal opened onClose={onStay} title="Leave this page?" centered>
      <Stack gap="lg">
        <Text>{navigationMessages.leaveConfirm}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onStay} disabled={aborting}>
            Stay
          </Button>
          <Button color="red" loading={aborting} onClick={onLeave}>
            Leave
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
