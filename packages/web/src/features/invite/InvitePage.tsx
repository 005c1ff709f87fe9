import { useState, type ReactElement } from 'react';
import { inviteMessages, isValidEmail } from '@coffer/contracts';
import { Button, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconCloudUpload,
  IconShieldCheck,
  IconUserCheck,
  IconUserPlus,
  IconUsers,
} from '@tabler/icons-react';
import { useParams } from 'react-router';
import { paths } from '../../lib/navigation/paths';
import { useCurrentUser } from '../../session/current-user';
import { AddContactModal } from '../contacts/ContactFormModal';
import { useContactsList } from '../contacts/use-contacts';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../lib/api/context';
import { contactsApi } from '../../lib/api/endpoints';
import { LinkButton } from '../../ui/LinkButton';

/**
 * /invite/{id}: where an invited person arrives once signed in. The spec: a welcome text says the
 * user can now exchange end-to-end encrypted files. The id is the inviter's email: the page offers to
 * add them as a contact, so the two can share files once both have keys.
 */
export function InvitePage(): ReactElement {
  const { id = '' } = useParams();
  const user = useCurrentUser();
  const inviter = id.trim().toLowerCase();
  const ownEmail = (user?.email ?? '').toLowerCase();
  const canAdd = isValidEmail(inviter) && inviter !== ownEmail;

  return (
    <Paper withBorder radius="lg" p={{ base: 'lg', sm: 40 }} maw={640} mx="auto" mt={{ base: 0, sm: 'xl' }}>
      <Stack gap="lg" align="flex-start">
        <ThemeIcon size={56} radius="xl" variant="light" color="green">
          <IconShieldCheck size={30} stroke={1.6} aria-hidden />
        </ThemeIcon>
        <Title order={1} fz={{ base: 22, sm: 26 }}>
          {inviteMessages.welcome}
        </Title>
        <Text c="dimmed">
          Files you share are encrypted in your browser for each recipient, so only the people you choose can
          open them.
        </Text>
        {canAdd ? <AddInviter email={inviter} /> : <DefaultActions />}
      </Stack>
    </Paper>
  );
}

function DefaultActions(): ReactElement {
  return (
    <Group gap="sm" mt="xs">
      <LinkButton to={paths.contacts} icon={IconUsers}>
        Go to Contacts
      </LinkButton>
      <LinkButton to={paths.newUpload} icon={IconCloudUpload} variant="default">
        New Upload
      </LinkButton>
    </Group>
  );
}

/** Offers to add the inviter; once they are a contact, points to Contacts. */
function AddInviter({ email }: { email: string }): ReactElement {
  const contacts = useContactsList();
  const inviterName = useInviterName(email);
  const [opened, setOpened] = useState(false);
  const [added, setAdded] = useState(false);
  const known = added || (contacts.data?.some((contact) => contact.email.toLowerCase() === email) ?? false);

  if (known) {
    return (
      <Stack gap="md" align="flex-start">
        <Group gap="xs" wrap="nowrap">
          <IconUserCheck size={20} aria-hidden color="var(--mantine-color-green-7)" />
          <Text style={{ overflowWrap: 'anywhere' }}>{`${email} is in your contacts.`}</Text>
        </Group>
        <DefaultActions />
      </Stack>
    );
  }

  return (
    <Stack gap="md" align="flex-start">
      <Text style={{ overflowWrap: 'anywhere' }}>
        {`${email} invited you. Add them as a contact to exchange files with each other.`}
      </Text>
      <Group gap="sm">
        <Button
          leftSection={<IconUserPlus size={18} aria-hidden />}
          loading={contacts.isPending || inviterName.isPending}
          onClick={() => {
            setOpened(true);
          }}
          styles={{ label: { whiteSpace: 'normal', textAlign: 'left', lineHeight: 1.35 } }}
          h="auto"
          mih={36}
          py={8}
        >
          {`Add ${email} as a contact`}
        </Button>
        <LinkButton to={paths.contacts} icon={IconUsers} variant="default">
          Go to Contacts
        </LinkButton>
      </Group>
      <AddContactModal
        opened={opened}
        onClose={() => {
          setOpened(false);
        }}
        initialEmail={email}
        initialName={inviterName.data ?? ''}
        onAdded={() => {
          setAdded(true);
        }}
      />
    </Stack>
  );
}

/**
 * The inviter's name as the server knows it from the invitation it delivered (issue 15, point 9).
 * The link's id alone is not trusted for a name: only an invitation really sent to me names them.
 */
function useInviterName(email: string): UseQueryResult<string | null> {
  const api = useApiClient();
  return useQuery({
    queryKey: ['invitations', 'received'],
    queryFn: () => contactsApi.receivedInvitations(api),
    retry: false,
    select: (invitations) => invitations.find((invitation) => invitation.email === email)?.name ?? null,
  });
}
