import { useId, type ReactElement } from 'react';
import { contactsMessages } from '@coffer/contracts';
import { ActionIcon, Box, Button, Card, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconPencil, IconSend, IconShare, IconTrash } from '@tabler/icons-react';
import { contactActionOf, type ContactView } from '../../lib/contacts/contact-status';
import { ContactStatusBadge } from './ContactStatusBadge';
import { PersonAvatar } from './PersonAvatar';

interface ContactCardProps {
  contact: ContactView;
  onEdit: (contact: ContactView) => void;
  onDelete: (contact: ContactView) => void;
  onShare: (contact: ContactView) => void;
  onInvite: (contact: ContactView) => void;
  /** An invitation to this contact is being sent. */
  inviting: boolean;
}

/** One contact: avatar, name, email, key state and its action (Share files, Invite or Invited). */
export function ContactCard({
  contact,
  onEdit,
  onDelete,
  onShare,
  onInvite,
  inviting,
}: ContactCardProps): ReactElement {
  const nameId = useId();
  return (
    <Card component="article" withBorder radius="lg" padding="lg" aria-labelledby={nameId}>
      <Stack gap="md" h="100%" justify="space-between">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <PersonAvatar
            name={contact.name}
            email={contact.email}
            color={contact.color}
            image={contact.image}
          />
          <Box miw={0} flex={1}>
            <Text id={nameId} fw={600} truncate="end">
              {contact.name}
            </Text>
            <Text size="sm" c="dimmed" truncate="end" title={contact.email}>
              {contact.email}
            </Text>
          </Box>
          <Group gap={4} wrap="nowrap">
            <Tooltip label="Edit" withArrow>
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={`Edit ${contact.name}`}
                onClick={() => {
                  onEdit(contact);
                }}
              >
                <IconPencil size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Delete" withArrow>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Delete ${contact.name}`}
                onClick={() => {
                  onDelete(contact);
                }}
              >
                <IconTrash size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>
        <Group justify="space-between" gap="sm" wrap="nowrap" mih={30}>
          <ContactStatusBadge status={contact.status} />
          <ContactAction contact={contact} onShare={onShare} onInvite={onInvite} inviting={inviting} />
        </Group>
      </Stack>
    </Card>
  );
}

function ContactAction({
  contact,
  onShare,
  onInvite,
  inviting,
}: Pick<ContactCardProps, 'contact' | 'onShare' | 'onInvite' | 'inviting'>): ReactElement | null {
  const action = contactActionOf(contact);
  switch (action) {
    case 'none':
      return null;
    case 'share':
      return (
        <Button
          size="xs"
          variant="light"
          leftSection={<IconShare size={16} aria-hidden />}
          onClick={() => {
            onShare(contact);
          }}
        >
          {contactsMessages.shareFilesButton}
        </Button>
      );
    case 'invite':
      return (
        <Button
          size="xs"
          variant="default"
          loading={inviting}
          leftSection={<IconSend size={16} aria-hidden />}
          onClick={() => {
            onInvite(contact);
          }}
        >
          {contactsMessages.inviteButton}
        </Button>
      );
    case 'invited':
      return (
        <Button size="xs" variant="default" disabled leftSection={<IconCheck size={16} aria-hidden />}>
          {contactsMessages.invited}
        </Button>
      );
  }
}
