import type { ReactElement } from 'react';
import { ScreenPlaceholder } from '../../app/layout/ScreenPlaceholder';

/** Shared With Me (/sharedwithme). Placeholder until its issue builds the screen. */
export function SharedWithMePage(): ReactElement {
  return <ScreenPlaceholder title="Shared With Me" />;
}
