import type { ReactElement } from 'react';
import { ScreenPlaceholder } from '../../app/layout/ScreenPlaceholder';

/** New Upload (/new). Placeholder until its issue builds the screen. */
export function NewUploadPage(): ReactElement {
  return <ScreenPlaceholder title="New Upload" />;
}
