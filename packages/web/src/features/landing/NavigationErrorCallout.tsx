import type { ReactElement } from 'react';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { StateCallout } from '../../ui/StateCallout';
import type { NavigationErrorMessage } from './navigation-error';

/**
 * On /landing after a navigation error: what happened, and "Try again", a full page load of the failed
 * path so a part of the app renamed by a new deploy is fetched afresh.
 */
export function NavigationErrorCallout({ message }: { message: NavigationErrorMessage }): ReactElement {
  return (
    <StateCallout
      look={{ label: message.title, color: 'orange', icon: IconAlertTriangle }}
      reason={message.body}
      actions={[
        {
          label: 'Try again',
          icon: IconRefresh,
          filled: true,
          onClick: () => {
            window.location.assign(message.retryPath);
          },
        },
      ]}
    />
  );
}
