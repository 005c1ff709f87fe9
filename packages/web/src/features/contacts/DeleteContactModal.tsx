import type { ReactElement } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ContactView } from '../../lib/contacts/contact-status';
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
    <Modal opened={opened && contact !== null} onClose={onClose} title="Delete contact" centered>
      {contact !== null && (
        <Stack gap="md">
          <Text>
            Delete <strong>{contact.name}</strong> ({contact.email}) from your contacts?
          </Text>
          <Text size="sm" c="dimmed">
            You can add them again later.
          </Text>
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={onClose} disabled={deleteContact.isPending}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={deleteContact.isPending}
              onClick={() => {
                deleteContact.mutate(contact, { onSuccess: onClose });
              }}
            >
              Delete
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
