import type { ReactElement } from 'react';
import { ScreenPlaceholder } from '../../app/layout/ScreenPlaceholder';

/** Feedback (/feedback). Placeholder until its issue builds the screen. */
export function FeedbackPage(): ReactElement {
  return <ScreenPlaceholder title="Feedback" />;
}
