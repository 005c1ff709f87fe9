import type { ReactElement } from 'react';
import type { ContactView } from '../../lib/contacts/contact-status';
import { ShareFilesModal } from './ShareFilesModal';

/** The props of the Contacts screen's seam (`features/contacts/ShareFilesModalSlot.tsx`). */
export interface ContactShareFilesModalProps {
  opened: boolean;
  onClose: () => void;
  contact: ContactView | null;
}

/**
 * The share-files modal of a verified contact on the Contacts screen: the contact is the recipient,
 * the user picks the files. Plugs into the Contacts screen's `ShareFilesModalSlot` seam.
 */
export function ContactShareFilesModal({
  opened,
  onClose,
  contact,
}: ContactShareFilesModalProps): ReactElement {
  return <ShareFilesModal opened={opened && contact !== null} onClose={onClose} contact={contact} />;
}
