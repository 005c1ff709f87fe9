import type { ReactElement } from 'react';
import { ScreenPlaceholder } from '../../app/layout/ScreenPlaceholder';

/** Contacts (/contacts). Placeholder until its issue builds the screen. */
export function ContactsPage(): ReactElement {
  return <ScreenPlaceholder title="Contacts" />;
}
