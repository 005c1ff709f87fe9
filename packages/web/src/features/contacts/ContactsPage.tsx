import { useEffect, useMemo, useState, type ComponentType, type ReactElement } from 'react';
import { contactsMessages } from '@coffer/contracts';
import { ActionIcon, Alert, Button, Card, Group, Skeleton, Stack, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconAlertTriangle, IconPlus, IconSearch, IconUsers } from '@tabler/icons-react';
import { isContactLimitReached } from '../../lib/contacts/contact-limit';
import { filterContacts, sortContacts } from '../../lib/contacts/contact-search';
import type { ContactView } from '../../lib/contacts/contact-status';
import { snackbar } from '../../lib/snackbar';
import { useStats } from '../profile/use-stats';
import { ContactCard } from './ContactCard';
import { AddContactModal, EditContactModal } from './ContactFormModal';
import { DeleteContactModal } from './DeleteContactModal';
import { ShareFilesModalSlot, type ShareFilesModalProps } from './ShareFilesModalSlot';
import { useContactsList, useContactViews, useInviteContact } from './use-contacts';
import { CardGrid } from '../../ui/CardGrid';
import { ListScreen, type ListEmpty } from '../../ui/ListScreen';
import { SearchInput } from '../../ui/SearchInput';

interface ContactsPageProps {
  /** The share-files modal for a verified contact; see {@link ShareFilesModalSlot}. */
  shareFilesModal?: ComponentType<ShareFilesModalProps>;
}

/** Contacts (/contacts): search, add, edit, delete, invite, and share with verified contacts. */
export function ContactsPage({
  shareFilesModal: ShareFilesModal = ShareFilesModalSlot,
}: ContactsPageProps): ReactElement {
  const contactsQuery = useContactsList();
  const stats = useStats();
  const [search, setSearch] = useState('');
  const [invitedNow, setInvitedNow] = useState<ReadonlySet<string>>(() => new Set());
  const views = useContactViews(contactsQuery.data ?? [], invitedNow);
  const visible = useMemo(() => sortContacts(filterContacts(views, search)), [views, search]);
  const limitReached = isContactLimitReached(stats.data);

  const [addOpened, addModal] = useDisclosure(false);
  const [editOpened, editModal] = useDisclosure(false);
  const [deleteOpened, deleteModal] = useDisclosure(false);
  const [shareOpened, shareModal] = useDisclosure(false);
  // Kept after a modal closes, so its content stays during the closing transition.
  const [selected, setSelected] = useState<ContactView | null>(null);

  const invite = useInviteContact();

  useEffect(() => {
    if (contactsQuery.isError) snackbar.danger(contactsMessages.loadFailed);
  }, [contactsQuery.isError, contactsQuery.errorUpdatedAt]);

  const open = (modal: { open: () => void }) => (contact: ContactView) => {
    setSelected(contact);
    modal.open();
  };

  const addButton = (
    <Tooltip label={limitReached ? contactsMessages.limitReached : 'Add contact'} withArrow>
      <ActionIcon
        size={42}
        radius="xl"
        variant="filled"
        aria-label="Add contact"
        disabled={limitReached}
        onClick={addModal.open}
      >
        <IconPlus size={22} aria-hidden />
      </ActionIcon>
    </Tooltip>
  );

  const emptyState = (all: number, shown: number): ListEmpty | null => {
    if (all === 0) {
      return {
        icon: <IconUsers size={28} aria-hidden />,
        title: contactsMessages.emptyTitle,
        description: contactsMessages.emptyHint,
        action: (
          <Button
            leftSection={<IconPlus size={18} aria-hidden />}
            disabled={limitReached}
            onClick={addModal.open}
          >
            {contactsMessages.addContactButton}
          </Button>
        ),
      };
    }
    if (shown > 0) return null;
    return {
      icon: <IconSearch size={28} aria-hidden />,
      variant: 'indicator',
      title: contactsMessages.emptyTitle,
      description: `No contact matches “${search.trim()}”.`,
      action: (
        <Button
          variant="default"
          onClick={() => {
            setSearch('');
          }}
        >
          Show all contacts
        </Button>
      ),
    };
  };

  return (
    <>
      <ListScreen
        title="Contacts"
        description="The people you exchange end-to-end encrypted files with."
        headerAside={
          <Group gap="sm" wrap="nowrap" w={{ base: '100%', sm: 'auto' }}>
            <SearchInput
              flex={1}
              w={{ sm: 300 }}
              placeholder="Search by name or email"
              label="Search contacts"
              value={search}
              onChange={setSearch}
            />
            {addButton}
          </Group>
        }
        notice={
          limitReached && (
            <Alert color="orange" variant="light" icon={<IconAlertTriangle size={20} aria-hidden />}>
              {contactsMessages.limitReached}
            </Alert>
          )
        }
        query={contactsQuery}
        loading={<ContactsSkeleton />}
        loadErrorTitle="Your contacts could not be loaded."
        empty={emptyState(views.length, visible.length)}
      >
        <CardGrid>
          {visible.map((contact) => (
            <ContactCard
              key={contact.email}
              contact={contact}
              onEdit={open(editModal)}
              onDelete={open(deleteModal)}
              onShare={open(shareModal)}
              inviting={invite.isPending && invite.variables.email === contact.email}
              onInvite={(target) => {
                invite.mutate(target, {
                  onSuccess: () => {
                    setInvitedNow((previous) => new Set(previous).add(target.email));
                  },
                });
              }}
            />
          ))}
        </CardGrid>
      </ListScreen>

      <AddContactModal opened={addOpened} onClose={addModal.close} />
      <EditContactModal opened={editOpened} onClose={editModal.close} contact={selected} />
      <DeleteContactModal opened={deleteOpened} onClose={deleteModal.close} contact={selected} />
      <ShareFilesModal opened={shareOpened} onClose={shareModal.close} contact={selected} />
    </>
  );
}

function ContactsSkeleton(): ReactElement {
  return (
    <CardGrid aria-busy="true" aria-label="Loading contacts">
      {[0, 1, 2].map((index) => (
        <Card key={index} withBorder radius="lg" padding="lg">
          <Group gap="sm" wrap="nowrap">
            <Skeleton circle height={38} />
            <Stack gap={6} flex={1}>
              <Skeleton height={12} width="60%" />
              <Skeleton height={10} width="80%" />
            </Stack>
          </Group>
          <Skeleton height={22} width={90} mt="lg" />
        </Card>
      ))}
    </CardGrid>
  );
}
