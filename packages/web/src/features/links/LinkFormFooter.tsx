import type { ReactElement } from 'react';
import { Alert, Button, Group, Text } from '@mantine/core';

/** Shown instead of a link form's action while the keys a link needs are not there. */
export function SigningKeyNeeded(): ReactElement {
  return (
    <Alert color="yellow" title="Links need your signing key">
      Unlock again with your master unlock key, then try again.
    </Alert>
  );
}

/**
 * The end of a link form (Create link, Change expiry and limit, Create request): why the last try failed, then
 * Cancel and the form's action, busy while it runs.
 */
export function LinkFormFooter({
  error,
  busy,
  disabled,
  actionLabel,
  onCancel,
  onAction,
}: {
  error: string | null;
  busy: boolean;
  disabled: boolean;
  actionLabel: string;
  onCancel: () => void;
  onAction: () => void;
}): ReactElement {
  return (
    <>
      {error !== null && (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      )}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button onClick={onAction} loading={busy} disabled={disabled}>
          {actionLabel}
        </Button>
      </Group>
    </>
  );
}
