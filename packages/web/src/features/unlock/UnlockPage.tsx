import type { ReactElement } from 'react';
import { ScreenPlaceholder } from '../../app/layout/ScreenPlaceholder';

/** Unlock Encryption (/unlock). Placeholder until its issue builds the screen. */
export function UnlockPage(): ReactElement {
  return <ScreenPlaceholder title="Unlock Encryption" />;
}
