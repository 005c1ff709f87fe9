import { useState, type ReactElement } from 'react';
import { List, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { ConfirmActions } from '../../ui/ConfirmDialog';
import { StateCallout } from '../../ui/StateCallout';
import type { StateLook } from '../../ui/state-look';

export interface ResetConfirmationProps {
  onCancel: () => void;
  /** Deletes the keys; the page reloads afterwards, so it only settles on failure. */
  onConfirm: () => Promise<void>;
}

const RESET_WARNING: StateLook = {
  label: 'Files encrypted with your old key will become unreadable',
  color: 'red',
  icon: IconAlertTriangle,
};

/** The forgotten-key warning: says plainly what a reset destroys before anything is deleted. */
export function ResetConfirmation({ onCancel, onConfirm }: ResetConfirmationProps): ReactElement {
  const [working, setWorking] = useState(false);

  return (
    <Stack gap="md">
      <StateCallout
        look={RESET_WARNING}
        reason="Your master unlock key cannot be recovered, by you or by Coffer. Resetting deletes your encryption keys for good:"
      >
        <List size="sm" spacing={4}>
          <List.Item>Your files encrypted with the old key can no longer be opened.</List.Item>
          <List.Item>Files other people shared with you can no longer be opened.</List.Item>
          <List.Item>People you shared files with can still open the copies they received.</List.Item>
        </List>
        <Text size="sm" fw={500}>
          This cannot be undone.
        </Text>
      </StateCallout>
      <Text size="sm" c="dimmed">
        After the reset you set up a new master unlock key. New uploads and shares use the new key.
      </Text>
      <ConfirmActions
        confirmLabel="Delete keys and reset"
        pending={working}
        onCancel={onCancel}
        focusCancel
        onConfirm={() => {
          setWorking(true);
          void onConfirm().finally(() => {
            setWorking(false);
          });
        }}
      />
    </Stack>
  );
}
