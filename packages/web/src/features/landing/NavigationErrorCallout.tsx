import type { ReactElement } from 'react';
import { Alert, Button } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import type { NavigationErrorMessage } from './navigation-error';

/**
 * On /landing after a navigation error: what happened, and "Try again", a full page load of the failed
 * path so a part of the app renamed by a new deploy is fetched afresh.
 */
export function NavigationErrorCallout({ message }: { message: NavigationErrorMessage }): ReactElement {
  return (
    <Alert
      color="orange"
      variant="light"
      role="alert"
      title={message.title}
      icon={<IconAlertTriangle size={20} aria-hidden />}
    >
      {message.body}
      <Button
        display="block"
        mt="sm"
        size="xs"
        variant="filled"
        color="orange.9"
        leftSection={<IconRefresh size={16} aria-hidden />}
        onClick={() => {
          window.location.assign(message.retryPath);
        }}
      >
        Try again
      </Button>
    </Alert>
  );
}
