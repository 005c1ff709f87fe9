import type { ReactElement } from 'react';
import { Stack, Text } from '@mantine/core';
import type { ContactView } from '../../lib/contacts/contact-status';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { useDeleteContact } from './use-contacts';

interface DeleteContactModalProps {
  opened: boolean;
  onClose: () => void;
  contact: ContactView | null;
}

/** Confirms deleting a contact, naming it. */
export function DeleteContactModal({ opened, onClose, contact }: DeleteContactModalProps): ReactElement {
  const deleteContact = useDeleteContact();
  return (
    <ConfirmDialog
      opened={opened && contact !== null}
      onClose={onClose}
      title="Delete contact"
      confirmLabel="Delete"
      pending={deleteContact.isPending}
      onConfirm={() => {
        if (contact === null) return;
        deleteContact.mutate(contact, { onSuccess: onClose });
      }}
    >
      {contact !== null && (
        <Stack gap="md">
          <Text>
            Delete <strong>{contact.name}</strong> ({contact.email}) from your contacts?
          </Text>
          <Text size="sm" c="dimmed">
            You can add them again later.
          </Text>
        </Stack>
      )}
    </ConfirmDialog>
  );
}
