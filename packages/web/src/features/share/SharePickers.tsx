import { useState, type ReactElement, type ReactNode } from 'react';
import { shareMessages } from '@coffer/contracts';
import { Anchor, Avatar, Checkbox, Group, ScrollArea, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '../../lib/navigation/paths';
import { contactInitials } from '../../lib/contacts/contact-search';
import type { ContactView } from '../../lib/contacts/contact-status';
import { revealHiddenCharacters } from '../../lib/contacts/exact-email';
import { searchFiles } from '../../lib/files/file-list';
import { fileFacts, type FileView } from '../../lib/files/file-views';
import { contactAvailability, isShared, type ExistingShares } from '../../lib/files/share-plan';
import { FileTypeIcon } from '../files/FileTypeIcon';
import type { TrustHold } from './share-trust';

function PickerSection({ title, children }: { title: string; children: ReactNode }): ReactElement {
  return (
    <Stack gap={6} role="group" aria-label={title}>
      <Text fw={600} size="sm">
        {title}
      </Text>
      {children}
    </Stack>
  );
}

function LoadingRows(): ReactElement {
  return (
    <Stack gap={8} aria-busy="true">
      <Skeleton height={18} width="70%" />
      <Skeleton height={18} width="55%" />
    </Stack>
  );
}

/** Why a contact cannot be picked, as shown under its name. */
function contactNote(
  contact: ContactView,
  availability: ReturnType<typeof contactAvailability>,
  hold: TrustHold | undefined,
): string {
  // The exact address, hidden characters drawn (see `exact-email.ts`).
  const email = revealHiddenCharacters(contact.email);
  if (contact.status === 'checking') return `${email} · Checking key…`;
  // A refused key (changed, not accepted) outranks "already shared": it is why nothing more goes.
  if (hold?.kind === 'refused' && availability !== 'unverified') return `${email} · ${hold.note}`;
  if (hold !== undefined && availability === 'selectable') return `${email} · ${hold.note}`;
  switch (availability) {
    case 'selectable':
      return email;
    case 'unverified':
      return `${email} · Unverified`;
    case 'already-shared':
      return `${email} · Already shared`;
  }
}

interface ContactPickerProps {
  contacts: readonly ContactView[];
  loading: boolean;
  failed: boolean;
  selected: readonly string[];
  fileIds: readonly string[];
  existing: ExistingShares;
  /** Contacts whose key is being checked, or was refused (e.g. changed and not accepted). */
  holds: ReadonlyMap<string, TrustHold>;
  onToggle: (email: string, checked: boolean) => void;
}

/**
 * The contacts to share with: only verified ones (with a public key) can be picked, and a contact that
 * already has every chosen file cannot be selected again (spec section 5). A contact whose key changed
 * since it was pinned (and the change is not accepted) is shown disabled, saying so (issue 13).
 */
export function ContactPicker({
  contacts,
  loading,
  failed,
  selected,
  fileIds,
  existing,
  holds,
  onToggle,
}: ContactPickerProps): ReactElement {
  return (
    <PickerSection title="Share with">
      {loading ? (
        <LoadingRows />
      ) : failed ? (
        <Text size="sm" c="red">
          Your contacts could not be loaded.
        </Text>
      ) : contacts.length === 0 ? (
        <Text size="sm" c="dimmed">
          You have no contacts yet.{' '}
          <Anchor component={Link} to={paths.contacts} size="sm">
            Add a contact
          </Anchor>{' '}
          to share files.
        </Text>
      ) : (
        <ScrollArea.Autosize mah={220} type="auto" offsetScrollbars>
          <Stack gap="sm" py={2}>
            {contacts.map((contact) => {
              const availability = contactAvailability(contact, fileIds, existing);
              const hold = holds.get(contact.email);
              const selectable = availability === 'selectable' && hold === undefined;
              return (
                <Group key={contact.email} gap="sm" wrap="nowrap" align="flex-start">
                  <Checkbox
                    flex={1}
                    miw={0}
                    label={contact.name}
                    description={contactNote(contact, availability, hold)}
                    checked={selectable && selected.includes(contact.email)}
                    disabled={!selectable}
                    onChange={(event) => {
                      onToggle(contact.email, event.currentTarget.checked);
                    }}
                    styles={{ description: { overflowWrap: 'anywhere' } }}
                  />
                  <Avatar
                    size={28}
                    radius="xl"
                    color={contact.color}
                    variant="filled"
                    autoContrast
                    aria-hidden
                  >
                    {contactInitials(contact.name, contact.email)}
                  </Avatar>
                </Group>
              );
            })}
          </Stack>
        </ScrollArea.Autosize>
      )}
    </PickerSection>
  );
}

interface FilePickerProps {
  files: readonly FileView[];
  loading: boolean;
  failed: boolean;
  selected: readonly string[];
  /** The chosen contacts (emails), to say which files they already have. */
  contactEmails: readonly string[];
  existing: ExistingShares;
  onToggle: (fileId: string, checked: boolean) => void;
}

/** More files than this get a search box in the picker. */
const FILE_SEARCH_FROM = 6;

/** A file's note: its size, and who of the chosen contacts already has it. */
function fileNote(file: FileView, contactEmails: readonly string[], existing: ExistingShares): string {
  if (!file.isEncrypted) return shareMessages.unencryptedFile;
  const facts = fileFacts(file);
  const having = contactEmails.filter((email) => isShared(existing, file.id, email)).length;
  if (having === 0) return facts;
  return having === contactEmails.length
    ? `${facts} · Already shared`
    : `${facts} · Already shared with ${having} of ${contactEmails.length}`;
}

/** The files to share; unencrypted files cannot be picked ('Cannot share unencrypted file'). */
export function FilePicker({
  files,
  loading,
  failed,
  selected,
  contactEmails,
  existing,
  onToggle,
}: FilePickerProps): ReactElement {
  const [search, setSearch] = useState('');
  const shown = searchFiles(files, search);
  return (
    <PickerSection title="Files">
      {loading ? (
        <LoadingRows />
      ) : failed ? (
        <Text size="sm" c="red">
          Your files could not be loaded.
        </Text>
      ) : files.length === 0 ? (
        <Text size="sm" c="dimmed">
          You have no files yet.{' '}
          <Anchor component={Link} to={paths.newUpload} size="sm">
            Upload a file
          </Anchor>{' '}
          to share it.
        </Text>
      ) : (
        <>
          {files.length > FILE_SEARCH_FROM && (
            <TextInput
              size="xs"
              placeholder="Search files"
              aria-label="Search files to share"
              leftSection={<IconSearch size={14} aria-hidden />}
              value={search}
              onChange={(event) => {
                setSearch(event.currentTarget.value);
              }}
            />
          )}
          <ScrollArea.Autosize mah={260} type="auto" offsetScrollbars>
            <Stack gap="sm" py={2}>
              {shown.map((file) => (
                <Group key={file.id} gap="sm" wrap="nowrap" align="flex-start">
                  <Checkbox
                    flex={1}
                    miw={0}
                    label={file.title}
                    description={fileNote(file, contactEmails, existing)}
                    checked={file.isEncrypted && selected.includes(file.id)}
                    disabled={!file.isEncrypted}
                    onChange={(event) => {
                      onToggle(file.id, event.currentTarget.checked);
                    }}
                    styles={{ label: { overflowWrap: 'anywhere' } }}
                  />
                  <FileTypeIcon type={file.fileType} size={28} />
                </Group>
              ))}
              {shown.length === 0 && (
                <Text size="sm" c="dimmed">
                  No file matches “{search.trim()}”.
                </Text>
              )}
            </Stack>
          </ScrollArea.Autosize>
        </>
      )}
    </PickerSection>
  );
}
