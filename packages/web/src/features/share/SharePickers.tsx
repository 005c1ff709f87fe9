import { useState, type ReactElement } from 'react';
import { shareMessages } from '@coffer/contracts';
import { Avatar, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { paths } from '../../lib/navigation/paths';
import { contactInitials } from '../../lib/contacts/contact-search';
import type { ContactView } from '../../lib/contacts/contact-status';
import { revealHiddenCharacters } from '../../lib/contacts/exact-email';
import { searchFiles } from '../../lib/files/file-list';
import { fileFacts, type FileView } from '../../lib/files/file-views';
import { contactAvailability, isShared, type ExistingShares } from '../../lib/files/share-plan';
import { FileTypeIcon } from '../files/FileTypeIcon';
import {
  PickerList,
  PickerRow,
  PickerSection,
  type PickerLoadState,
  type PickerWords,
} from './PickerSection';
import type { TrustHold } from './share-trust';

/** Each picker's words for a list that failed to load or is empty. */
const WORDS: Record<'contacts' | 'files', PickerWords> = {
  contacts: {
    failed: 'Your contacts could not be loaded.',
    none: 'You have no contacts yet.',
    link: { label: 'Add a contact', to: paths.contacts },
    purpose: 'to share files.',
  },
  files: {
    failed: 'Your files could not be loaded.',
    none: 'You have no files yet.',
    link: { label: 'Upload a file', to: paths.newUpload },
    purpose: 'to share it.',
  },
};

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

interface ContactPickerProps extends PickerLoadState {
  contacts: readonly ContactView[];
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
  selected,
  fileIds,
  existing,
  holds,
  onToggle,
  ...list
}: ContactPickerProps): ReactElement {
  return (
    <PickerSection title="Share with" words={WORDS.contacts} {...list} empty={contacts.length === 0}>
      <PickerList mah={220}>
        {contacts.map((contact) => {
          const availability = contactAvailability(contact, fileIds, existing);
          const hold = holds.get(contact.email);
          const selectable = availability === 'selectable' && hold === undefined;
          return (
            <PickerRow
              key={contact.email}
              label={contact.name}
              description={contactNote(contact, availability, hold)}
              checked={selectable && selected.includes(contact.email)}
              disabled={!selectable}
              onChange={(event) => {
                onToggle(contact.email, event.currentTarget.checked);
              }}
              styles={{ description: { overflowWrap: 'anywhere' } }}
              aside={
                <Avatar size={28} radius="xl" color={contact.color} variant="filled" autoContrast aria-hidden>
                  {contactInitials(contact.name, contact.email)}
                </Avatar>
              }
            />
          );
        })}
      </PickerList>
    </PickerSection>
  );
}

interface FilePickerProps extends PickerLoadState {
  files: readonly FileView[];
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
  selected,
  contactEmails,
  existing,
  onToggle,
  ...list
}: FilePickerProps): ReactElement {
  const [search, setSearch] = useState('');
  const shown = searchFiles(files, search);
  return (
    <PickerSection title="Files" words={WORDS.files} {...list} empty={files.length === 0}>
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
      <PickerList mah={260}>
        {shown.map((file) => (
          <PickerRow
            key={file.id}
            label={file.title}
            description={fileNote(file, contactEmails, existing)}
            checked={file.isEncrypted && selected.includes(file.id)}
            disabled={!file.isEncrypted}
            onChange={(event) => {
              onToggle(file.id, event.currentTarget.checked);
            }}
            styles={{ label: { overflowWrap: 'anywhere' } }}
            aside={<FileTypeIcon type={file.fileType} size={28} />}
          />
        ))}
        {shown.length === 0 && (
          <Text size="sm" c="dimmed">
            No file matches “{search.trim()}”.
          </Text>
        )}
      </PickerList>
    </PickerSection>
  );
}
