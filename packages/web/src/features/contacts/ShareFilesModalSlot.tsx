import type { ComponentType, ReactElement } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconFolder } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '../../app/router/paths';
import type { ContactView } from '../../lib/contacts/contact-status';

/** What the Contacts screen hands to the share-files modal of a verified contact. */
export interface ShareFilesModalProps {
  opened: boolean;
  onClose: () => void;
  /** A verified contact: `publicKey` and `keyId` are set. Null before the first "Share files". */
  contact: ContactView | null;
}

/**
 * Seam for the share-files modal (spec section 2: the Contacts screen's "share files" modal). The file
 * screens own sharing (file list, re-wrapping each file key for `contact.publicKey`): they replace this
 * component's body with their modal, or `ContactsPage` gets their component through its
 * `shareFilesModal` prop. Until then it points to My Files, where each file has a Share action.
 */
export const ShareFilesModalSlot: ComponentType<ShareFilesModalProps> = ShareFromMyFilesModal;

function ShareFromMyFilesModal({ opened, onClose, contact }: ShareFilesModalProps): ReactElement {
  const name = contact?.name ?? '';
  return (
    <Modal opened={opened && contact !== null} onClose={onClose} title={`Share files with ${name}`} centered>
      <Stack gap="md">
        <Text>
          Files are shared from My Files: use a file&apos;s Share action and pick {name}. Each file&apos;s key
          is encrypted for {name}&apos;s public key, so only they can open it.
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button component={Link} to={paths.myFiles} leftSection={<IconFolder size={18} aria-hidden />}>
            Go to My Files
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
