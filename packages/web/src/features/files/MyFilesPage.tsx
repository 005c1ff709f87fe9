import type { ReactElement } from 'react';
import { ScreenPlaceholder } from '../../app/layout/ScreenPlaceholder';

/** My Files (/myfiles). Placeholder until its issue builds the screen. */
export function MyFilesPage(): ReactElement {
  return <ScreenPlaceholder title="My Files" />;
}
