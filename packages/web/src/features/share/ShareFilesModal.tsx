import { useMemo, useState, type ReactElement } from 'react';
import { shareMessages, unverifiedContactText } from '@coffer/contracts';
import { Alert, Avatar, Badge, Button, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import { DialogActions } from '../../ui/DialogActions';
import { useMediaQuery } from '@mantine/hooks';
import { IconShare, IconShieldCheck } from '@tabler/icons-react';
import { contactInitials } from '../../lib/contacts/contact-search';
import type { ContactView } from '../../lib/contacts/contact-status';
import { sortFiles } from '../../lib/files/file-list';
import { snackbar } from '../../lib/snackbar';
import { canShare, contactAvailability, isVerified, planShares } from '../../lib/files/share-plan';
import { useMyFiles } from '../files/use-files';
import { ContactSafetyNumber } from '../contacts/ContactSafetyNumber';
import { ExactEmail } from '../contacts/ExactEmail';
import { useContactTrusts } from '../contacts/use-contact-trust';
import { ContactPicker, FilePicker } from './SharePickers';
import { trustHold, type TrustHold } from './share-trust';
import { useExistingShares, useShareRunner } from './use-share-files';
import { useShareContacts } from './use-share-contacts';

export interface ShareFilesModalProps {
  opened: boolean;
  onClose: () => void;
  /** Files chosen when the modal opens (the card it was opened from). */
  initialFileIds?: readonly string[];
  /**
   * Opened from the Contacts screen for this contact: it is the only recipient, and only files are
   * picked. Null or absent: the user picks contacts too.
   */
  contact?: ContactView | null;
}

/**
 * Share files with contacts (spec sections 2, 4, 5, 8): pick verified contacts and files, then each new
 * (file, contact) pair gets the file key re-wrapped to the contact's public key, one contact at a time.
 */
export function ShareFilesModal({
  opened,
  onClose,
  initialFileIds = [],
  contact = null,
}: ShareFilesModalProps): ReactElement {
  const isMobile = useMediaQuery('(max-width: 991px)');
  const [running, setRunning] = useState(false);
  const title = contact === null ? 'Share files' : `Share files with ${contact.name}`;
  return (
    <Modal
      opened={opened}
      onClose={() => {
        if (!running) onClose();
      }}
      title={title}
      size="lg"
      centered
      fullScreen={isMobile}
      closeOnClickOutside={!running}
      closeOnEscape={!running}
      withCloseButton={!running}
    >
      {/* Mounted only while open, so every opening starts from the given choice. */}
      <ShareFilesForm
        initialFileIds={initialFileIds}
        contact={contact}
        onClose={onClose}
        onRunningChange={setRunning}
      />
    </Modal>
  );
}

interface ShareFilesFormProps {
  initialFileIds: readonly string[];
  contact: ContactView | null;
  onClose: () => void;
  onRunningChange: (running: boolean) => void;
}

function ShareFilesForm({
  initialFileIds,
  contact,
  onClose,
  onRunningChange,
}: ShareFilesFormProps): ReactElement {
  const { files: allFiles, query: filesQuery } = useMyFiles();
  const files = useMemo(() => sortFiles(allFiles, 'newest'), [allFiles]);
  const { contacts: allContacts, query: contactsQuery } = useShareContacts(contact === null);
  const [selectedFiles, setSelectedFiles] = useState<readonly string[]>(initialFileIds);
  const [selectedContacts, setSelectedContacts] = useState<readonly string[]>(
    contact === null ? [] : [contact.email],
  );
  const [running, setRunning] = useState(false);
  const { existing, pending } = useExistingShares(
    useMemo(() => files.map((file) => file.id), [files]),
    true,
  );
  const runner = useShareRunner();

  const candidates = contact === null ? allContacts : [contact];
  // Each verified contact's key against the pins: a changed key (not accepted) is not offered.
  const trusts = useContactTrusts(candidates);
  const holds = new Map(
    candidates.flatMap((candidate) => {
      const hold = isVerified(candidate) ? trustHold(trusts.get(candidate.email)) : null;
      return hold === null ? [] : [[candidate.email, hold] as const];
    }),
  );
  const chosenFiles = files.filter((file) => file.isEncrypted && selectedFiles.includes(file.id));
  const chosenFileIds = chosenFiles.map((file) => file.id);
  // A chosen contact that became unavailable (e.g. already has every chosen file) does not count.
  const chosenContacts =
    contact === null
      ? candidates.filter(
          (candidate) =>
            selectedContacts.includes(candidate.email) &&
            !holds.has(candidate.email) &&
            contactAvailability(candidate, chosenFileIds, existing) === 'selectable',
        )
      : isVerified(contact) && !holds.has(contact.email)
        ? [contact]
        : [];
  const enabled = canShare(chosenContacts, chosenFiles) && !running && !pending;

  const toggle =
    (set: (update: (previous: readonly string[]) => readonly string[]) => void) =>
    (value: string, checked: boolean) => {
      set((previous) => (checked ? [...previous, value] : previous.filter((item) => item !== value)));
    };

  const share = async (): Promise<void> => {
    const plan = planShares(chosenContacts, chosenFiles, existing);
    setRunning(true);
    onRunningChange(true);
    try {
      const result = await runner.run(plan);
      if (result !== null && result.failed.length === 0) onClose();
    } catch {
      // Unexpected: the runner reports each pair's failure itself.
      snackbar.danger(shareMessages.shareFilesFailed);
    } finally {
      setRunning(false);
      onRunningChange(false);
    }
  };

  return (
    <Stack gap="lg">
      {contact !== null ? (
        <LockedContact contact={contact} hold={holds.get(contact.email) ?? null} />
      ) : (
        <ContactPicker
          contacts={candidates}
          loading={contactsQuery.isPending}
          failed={contactsQuery.isError}
          selected={selectedContacts}
          fileIds={chosenFileIds}
          existing={existing}
          holds={holds}
          onToggle={toggle(setSelectedContacts)}
        />
      )}
      <FilePicker
        files={files}
        loading={filesQuery.isPending}
        failed={filesQuery.isError}
        selected={selectedFiles}
        contactEmails={chosenContacts.map((c) => c.email)}
        existing={existing}
        onToggle={toggle(setSelectedFiles)}
      />
      {runner.progress !== null && (
        <Stack gap={6} aria-live="polite">
          <Text size="sm" c="dimmed">
            {runner.progress.text}
          </Text>
          <Progress
            aria-label="Sharing progress"
            value={(runner.progress.done / runner.progress.total) * 100}
            animated
            size="sm"
          />
        </Stack>
      )}
      <DialogActions onCancel={onClose} pending={running}>
        <Button
          leftSection={<IconShare size={18} aria-hidden />}
          disabled={!enabled}
          loading={running}
          onClick={() => {
            void share();
          }}
        >
          {shareMessages.shareButton}
        </Button>
      </DialogActions>
    </Stack>
  );
}

function LockedContact({ contact, hold }: { contact: ContactView; hold: TrustHold | null }): ReactElement {
  if (!isVerified(contact)) {
    return (
      <Alert color="yellow" variant="light">
        {unverifiedContactText(contact.name)}
      </Alert>
    );
  }
  // Checking: the Share button waits. Refused: say why, as the contact's card does.
  if (hold !== null && hold.kind === 'refused') {
    return (
      <Alert color="red" variant="light" role="alert" title={hold.note}>
        {hold.reason}
      </Alert>
    );
  }
  return (
    <Stack gap="sm">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <Avatar radius="xl" color={contact.color} variant="filled" autoContrast aria-hidden>
          {contactInitials(contact.name, contact.email)}
        </Avatar>
        <Stack gap={0} miw={0} flex={1}>
          <Text fw={600} truncate="end">
            {contact.name}
          </Text>
          <ExactEmail email={contact.email} />
        </Stack>
        <Badge variant="light" color="green" leftSection={<IconShieldCheck size={14} aria-hidden />}>
          Verified
        </Badge>
      </Group>
      {contact.publicKey !== null && (
        <ContactSafetyNumber name={contact.name} publicKey={contact.publicKey} compact />
      )}
    </Stack>
  );
}
