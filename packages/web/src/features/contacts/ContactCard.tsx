import { useId, type ReactElement } from 'react';
import { contactsMessages } from '@coffer/contracts';
import { Box, Button, Card, Group, Stack, Text } from '@mantine/core';
import { IconCheck, IconPencil, IconSend, IconShare, IconTrash } from '@tabler/icons-react';
import { contactActionOf, servedKeyOf, type ContactView } from '../../lib/contacts/contact-status';
import { IconAction } from '../../ui/IconAction';
import { ContactKeyTrust, ContactTrustError, KeyTrustBadge } from './ContactKeyTrust';
import { useContactTrust } from './use-contact-trust';
import { ContactSafetyNumber } from './ContactSafetyNumber';
import { ContactStatusBadge } from './ContactStatusBadge';
import { ExactEmail } from './ExactEmail';
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

/**
 * One contact: avatar, name, the exact email, the key's safety number when it has one, key state and
 * its action (Share files, Invite or Invited).
 */
export function ContactCard({
  contact,
  onEdit,
  onDelete,
  onShare,
  onInvite,
  inviting,
}: ContactCardProps): ReactElement {
  const nameId = useId();
  const served = servedKeyOf(contact);
  const trust = useContactTrust(contact.email, served);
  // Sharing waits for a key check that failed or refuses (key changed, keys that do not match).
  const shareBlocked = trust.isError || trust.data?.canShare === false;
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
            <ExactEmail email={contact.email} />
          </Box>
          <Group gap={4} wrap="nowrap">
            <IconAction
              tooltip="Edit"
              label={`Edit ${contact.name}`}
              icon={IconPencil}
              color="gray"
              onClick={() => {
                onEdit(contact);
              }}
            />
            <IconAction
              tooltip="Delete"
              label={`Delete ${contact.name}`}
              icon={IconTrash}
              color="red"
              onClick={() => {
                onDelete(contact);
              }}
            />
          </Group>
        </Group>
        {/* A changed key shows both numbers in its alert; the card's "matches?" hint would mislead. */}
        {contact.publicKey !== null && trust.data?.state !== 'key-changed' && (
          <ContactSafetyNumber name={contact.name} publicKey={contact.publicKey} compact />
        )}
        {served !== null && trust.data !== undefined && (
          <ContactKeyTrust name={contact.name} email={contact.email} served={served} trust={trust.data} />
        )}
        {trust.isError && <ContactTrustError error={trust.error} />}
        {/* Wraps on narrow cards: a long key state ("New key accepted, …") and the action both stay whole. */}
        <Group justify="space-between" gap="sm" wrap="wrap" mih={30}>
          {trust.data === undefined ? (
            <ContactStatusBadge status={contact.status} />
          ) : (
            <KeyTrustBadge state={trust.data.state} />
          )}
          {!shareBlocked && (
            <ContactAction contact={contact} onShare={onShare} onInvite={onInvite} inviting={inviting} />
          )}
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
