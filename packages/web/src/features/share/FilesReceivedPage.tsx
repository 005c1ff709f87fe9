import type { ReactElement } from 'react';
import { ScreenPlaceholder } from '../../app/layout/ScreenPlaceholder';

/** Files Received (/share/:id). Placeholder until its issue builds the screen. */
export function FilesReceivedPage(): ReactElement {
  return <ScreenPlaceholder title="Files Received" />;
}
