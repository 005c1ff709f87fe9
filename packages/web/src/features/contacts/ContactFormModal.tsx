import type { ReactElement } from 'react';
import type { Contact } from '@coffer/contracts';
import { NAME_MAX_LENGTH, validateContactEmail, validateContactName } from '@coffer/contracts';
import { Button, Modal, Stack, TextInput, type TextInputProps } from '@mantine/core';
import { DialogActions } from '../../ui/DialogActions';
import { useForm } from '@mantine/form';
import type { ContactView } from '../../lib/contacts/contact-status';
import { ContactSafetyNumber } from './ContactSafetyNumber';
import { useAddContact, useRenameContact } from './use-contacts';

interface AddContactModalProps {
  opened: boolean;
  onClose: () => void;
  /** Prefills the email (the invite page passes the inviter's). */
  initialEmail?: string;
  /** Prefills the name (the invite page passes the inviter's, as the server knows it). */
  initialName?: string;
  onAdded?: (contact: Contact) => void;
}

/** Add a contact: name and email, with the spec's validation messages. */
export function AddContactModal({
  opened,
  onClose,
  initialEmail,
  initialName,
  onAdded,
}: AddContactModalProps): ReactElement {
  return (
    <Modal opened={opened} onClose={onClose} title="Add contact" centered>
      <AddContactForm
        initialEmail={initialEmail ?? ''}
        initialName={initialName ?? ''}
        onCancel={onClose}
        onAdded={onAdded}
      />
    </Modal>
  );
}

function AddContactForm({
  initialEmail,
  initialName,
  onCancel,
  onAdded,
}: {
  initialEmail: string;
  initialName: string;
  onCancel: () => void;
  onAdded: ((contact: Contact) => void) | undefined;
}): ReactElement {
  const addContact = useAddContact();
  const form = useForm({
    initialValues: { name: initialName, email: initialEmail },
    validate: { name: validateContactName, email: validateContactEmail },
  });

  const submit = form.onSubmit((values) => {
    addContact.mutate(values, {
      onSuccess: (contact) => {
        onCancel();
        onAdded?.(contact);
      },
    });
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <NameInput placeholder="Ada Lovelace" {...form.getInputProps('name')} />
        <TextInput
          label="Email"
          type="email"
          placeholder="ada@example.com"
          autoComplete="off"
          withAsterisk
          {...form.getInputProps('email')}
        />
        <FormButtons submitLabel="Add contact" pending={addContact.isPending} onCancel={onCancel} />
      </Stack>
    </form>
  );
}

interface EditContactModalProps {
  opened: boolean;
  onClose: () => void;
  contact: ContactView | null;
}

/** Rename a contact. The email is shown but cannot be edited (spec section 5). */
export function EditContactModal({ opened, onClose, contact }: EditContactModalProps): ReactElement {
  return (
    <Modal opened={opened && contact !== null} onClose={onClose} title="Edit contact" centered>
      {contact !== null && <EditContactForm contact={contact} onCancel={onClose} />}
    </Modal>
  );
}

function EditContactForm({
  contact,
  onCancel,
}: {
  contact: ContactView;
  onCancel: () => void;
}): ReactElement {
  const renameContact = useRenameContact();
  const form = useForm({
    initialValues: { name: contact.name },
    validate: { name: validateContactName },
  });

  const submit = form.onSubmit(({ name }) => {
    renameContact.mutate({ name, email: contact.email }, { onSuccess: onCancel });
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <NameInput {...form.getInputProps('name')} />
        <TextInput
          label="Email"
          type="email"
          value={contact.email}
          disabled
          readOnly
          description="The email address of a contact cannot be changed."
        />
        {contact.publicKey !== null && (
          <ContactSafetyNumber name={contact.name} publicKey={contact.publicKey} />
        )}
        <FormButtons submitLabel="Save" pending={renameContact.isPending} onCancel={onCancel} />
      </Stack>
    </form>
  );
}

/** The contact's name, first in both forms: focused when the dialog opens. */
function NameInput(props: TextInputProps): ReactElement {
  return <TextInput label="Name" data-autofocus maxLength={NAME_MAX_LENGTH} withAsterisk {...props} />;
}

/** Cancel and submit; Cancel waits while the contact is being saved. */
function FormButtons({
  submitLabel,
  pending,
  onCancel,
}: {
  submitLabel: string;
  pending: boolean;
  onCancel: () => void;
}): ReactElement {
  return (
    <DialogActions onCancel={onCancel} pending={pending} mt="xs">
      <Button type="submit" loading={pending}>
        {submitLabel}
      </Button>
    </DialogActions>
  );
}
