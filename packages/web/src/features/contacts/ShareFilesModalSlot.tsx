import type { ComponentType } from 'react';
import type { ContactView } from '../../lib/contacts/contact-status';
import { ContactShareFilesModal } from '../share/ContactShareFilesModal';

/** What the Contacts screen hands to the share-files modal of a verified contact. */
export interface ShareFilesModalProps {
  opened: boolean;
  onClose: () => void;
  /** A verified contact: `publicKey` and `keyId` are set. Null before the first "Share files". */
  contact: ContactView | null;
}

/**
 * Seam for the share-files modal (spec section 2: the Contacts screen's "share files" modal). The file
 * screens own sharing (file list, re-wrapping each file key for `contact.publicKey`): their modal, with
 * the contact as the recipient and the user's files to pick.
 */
export const ShareFilesModalSlot: ComponentType<ShareFilesModalProps> = ContactShareFilesModal;
