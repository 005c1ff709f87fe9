import type { ReactElement } from 'react';
import { ScreenPlaceholder } from '../../app/layout/ScreenPlaceholder';

/** Profile (/profile). Placeholder until its issue builds the screen. */
export function ProfilePage(): ReactElement {
  return <ScreenPlaceholder title="Profile" />;
}
