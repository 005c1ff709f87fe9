import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContactsPage } from './ContactsPage';
import type { ShareFilesModalProps } from './ShareFilesModalSlot';
import {
  apiError,
  contact,
  createFakeApi,
  renderScreen,
  stats,
  type FakeApi,
} from '../../test/render-screen';

const ada = contact({ name: 'Ada Lovelace', email: 'ada@example.com' });
const alan = contact({ name: 'Alan Turing', email: 'alan@example.com' });
const keyOf = (email: string) => `GET /users/keys/public/${encodeURIComponent(email)}`;
const noKey = () => {
  throw apiError(404, 'KEYS_NOT_FOUND', 'No keys');
};
const someKey = () => ({ publicKey: 'AAAA', keyId: 'key-1' });

function apiWith(contacts = [ada, alan], statsOverrides: Parameters<typeof stats>[0] = {}): FakeApi {
  return createFakeApi({
    'GET /users/contacts': () => ({ contacts }),
    'GET /users/stats': () => stats({ contacts: contacts.length, ...statsOverrides }),
    [keyOf(ada.email)]: someKey,
    [keyOf(alan.email)]: noKey,
  });
}

const card = (name: string) => screen.findByRole('article', { name });
/** A danger snackbar (role alert) with exactly this text. */
const findSnackbar = (text: string) => screen.findByText(text, { selector: '[role="alert"] *' });

let user: ReturnType<typeof userEvent.setup>;
beforeEach(() => {
  user = userEvent.setup({ delay: null });
});

afterEach(() => {
  act(() => {
    notifications.clean();
  });
});

describe('Contacts page', () => {
  it('shows the empty state with an Add Contact button', async () => {
    renderScreen(<ContactsPage />, { api: apiWith([]) });
    expect(await screen.findByText('No contacts found')).toBeTruthy();
    expect(screen.getByText('Add a contact to get started')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add Contact' }));
    expect(await screen.findByRole('dialog', { name: 'Add contact' })).toBeTruthy();
  });

  it('lists contacts with avatar, name, email and key state', async () => {
    renderScreen(<ContactsPage />, { api: apiWith() });
    const adaCard = await card('Ada Lovelace');
    expect(within(adaCard).getByText('ada@example.com')).toBeTruthy();
    expect(within(adaCard).getByText('AL')).toBeTruthy();
    expect(await within(adaCard).findByText('Verified')).toBeTruthy();
    expect(within(adaCard).getByRole('button', { name: 'Share files' })).toBeTruthy();
    expect(within(adaCard).queryByRole('button', { name: 'Invite' })).toBeNull();

    const alanCard = await card('Alan Turing');
    expect(await within(alanCard).findByText('Unverified')).toBeTruthy();
    expect(within(alanCard).getByRole('button', { name: 'Invite' })).toBeTruthy();
    expect(within(alanCard).queryByRole('button', { name: 'Share files' })).toBeNull();
  });

  it('filters by name or email', async () => {
    renderScreen(<ContactsPage />, { api: apiWith() });
    await card('Ada Lovelace');
    const search = screen.getByRole('textbox', { name: 'Search contacts' });
    await user.click(search);
    await user.paste('TURING');
    expect(screen.queryByRole('article', { name: 'Ada Lovelace' })).toBeNull();
    expect(screen.getByRole('article', { name: 'Alan Turing' })).toBeTruthy();
    await user.clear(search);
    await user.click(search);
    await user.paste('ada@');
    expect(screen.getByRole('article', { name: 'Ada Lovelace' })).toBeTruthy();
    expect(screen.queryByRole('article', { name: 'Alan Turing' })).toBeNull();
    await user.clear(search);
    await user.click(search);
    await user.paste('nobody');
    expect(screen.getByText('No contacts found')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Show all contacts' }));
    expect(screen.getAllByRole('article')).toHaveLength(2);
  });

  it('validates and adds a contact', async () => {
    const api = apiWith([]);
    api.on('POST /users/contacts', ({ body }) => {
      const { name, email } = body as { name: string; email: string };
      return contact({ name, email });
    });
    renderScreen(<ContactsPage />, { api });
    await user.click(await screen.findByRole('button', { name: 'Add contact' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add contact' });
    await user.click(within(dialog).getByRole('button', { name: 'Add contact' }));
    expect(within(dialog).getByText('Name is required.')).toBeTruthy();
    expect(within(dialog).getByText('Enter a valid email.')).toBeTruthy();
    expect(api.callsTo('POST /users/contacts')).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), '  Hedy Lamarr ');
    await user.type(within(dialog).getByRole('textbox', { name: /Email/ }), 'hedy@example');
    await user.click(within(dialog).getByRole('button', { name: 'Add contact' }));
    expect(within(dialog).queryByText('Name is required.')).toBeNull();
    expect(within(dialog).getByText('Enter a valid email.')).toBeTruthy();

    await user.type(within(dialog).getByRole('textbox', { name: /Email/ }), '.com');
    await user.click(within(dialog).getByRole('button', { name: 'Add contact' }));
    expect(await screen.findByText('Contact added successfully!')).toBeTruthy();
    expect(api.callsTo('POST /users/contacts')[0]?.body).toEqual({
      name: 'Hedy Lamarr',
      email: 'hedy@example.com',
    });
    await waitFor(() => {
      expect(screen.queryByRole('dialog', { name: 'Add contact' })).toBeNull();
    });
    // The list and the contact count are fetched again.
    await waitFor(() => {
      expect(api.callsTo('GET /users/contacts').length).toBeGreaterThan(1);
      expect(api.callsTo('GET /users/stats').length).toBeGreaterThan(1);
    });
  });

  it.each([
    [
      apiError(409, 'CONTACT_ALREADY_EXISTS', 'A contact with this email already exists'),
      'A contact with this email already exists',
    ],
    [
      apiError(400, 'CONTACT_IS_SELF', 'You cannot add yourself as a contact.'),
      'That is your own email address. Add the people you want to exchange files with.',
    ],
    [apiError(500, 'INTERNAL', 'Boom'), 'Error adding contact!'],
  ])('shows the add failure as a snackbar (%#)', async (error, text) => {
    const api = apiWith([]).on('POST /users/contacts', () => {
      throw error;
    });
    renderScreen(<ContactsPage />, { api });
    await user.click(await screen.findByRole('button', { name: 'Add contact' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add contact' });
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Ada');
    await user.type(within(dialog).getByRole('textbox', { name: /Email/ }), 'ada@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Add contact' }));
    expect(await findSnackbar(text)).toBeTruthy();
    // The form stays open so the user can correct it.
    expect(screen.getByRole('dialog', { name: 'Add contact' })).toBeTruthy();
  });

  it('edits the name only: the email is shown but disabled', async () => {
    let contacts = [ada, alan];
    const api = apiWith()
      .on('GET /users/contacts', () => ({ contacts }))
      .on(`PATCH /users/contacts/${encodeURIComponent(ada.email)}`, ({ body }) => {
        const renamed = { ...ada, ...(body as { name: string }) };
        contacts = [renamed, alan];
        return renamed;
      });
    renderScreen(<ContactsPage />, { api });
    await user.click(await screen.findByRole('button', { name: 'Edit Ada Lovelace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit contact' });
    const email = within(dialog).getByRole<HTMLInputElement>('textbox', { name: /Email/ });
    expect(email.value).toBe('ada@example.com');
    expect(email.disabled).toBe(true);

    const name = within(dialog).getByRole('textbox', { name: /Name/ });
    await user.clear(name);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Name is required.')).toBeTruthy();

    await user.type(name, 'Countess Lovelace');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Contact updated successfully!')).toBeTruthy();
    expect(api.callsTo(`PATCH /users/contacts/${encodeURIComponent(ada.email)}`)[0]?.body).toEqual({
      name: 'Countess Lovelace',
    });
    expect(await screen.findByRole('article', { name: 'Countess Lovelace' })).toBeTruthy();
  });

  it('shows the safety number of a verified contact when editing', async () => {
    const api = apiWith().on(keyOf(ada.email), () => ({
      // A real SPKI is not needed: the fingerprint hashes whatever bytes the key has.
      publicKey: 'AAECAwQFBgcICQ==',
      keyId: 'key-1',
    }));
    renderScreen(<ContactsPage />, { api });
    const adaCard = await card('Ada Lovelace');
    await within(adaCard).findByText('Verified');
    await user.click(within(adaCard).getByRole('button', { name: 'Edit Ada Lovelace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit contact' });
    const safetyNumber = await within(dialog).findByLabelText('Safety number');
    expect(safetyNumber.textContent).toMatch(/^([0-9A-F]{4} ){15}[0-9A-F]{4}$/);
  });

  it('shows a verified contact’s safety number on its card', async () => {
    const api = apiWith().on(keyOf(ada.email), () => ({ publicKey: 'AAECAwQFBgcICQ==', keyId: 'key-1' }));
    renderScreen(<ContactsPage />, { api });
    const adaCard = await card('Ada Lovelace');
    const safetyNumber = await within(adaCard).findByLabelText('Safety number');
    expect(safetyNumber.textContent).toMatch(/^([0-9A-F]{4} ){15}[0-9A-F]{4}$/);
    // No key, no number.
    const alanCard = await card('Alan Turing');
    await within(alanCard).findByText('Unverified');
    expect(within(alanCard).queryByLabelText('Safety number')).toBeNull();
  });

  it('shows look-alike addresses exactly as stored, in full', async () => {
    const plus = contact({ name: 'Boss', email: 'ceo+billing@corp.example' });
    const longer = contact({ name: 'Boss too', email: 'ceo@corp.example.login-check.example' });
    const idn = contact({ name: 'Boss three', email: 'ceo@xn--crp-tdd.example' });
    const hidden = contact({ name: 'Boss four', email: 'ceo\u200b@corp.example' });
    const cyrillic = contact({ name: 'Boss five', email: 'c\u0435o@corp.example' });
    const list = [plus, longer, idn, hidden, cyrillic];
    const api = createFakeApi({
      'GET /users/contacts': () => ({ contacts: list }),
      'GET /users/stats': () => stats({ contacts: list.length }),
    });
    for (const entry of list) api.on(keyOf(entry.email), noKey);
    renderScreen(<ContactsPage />, { api });
    expect(within(await card('Boss')).getByText('ceo+billing@corp.example')).toBeTruthy();
    expect(within(await card('Boss too')).getByText('ceo@corp.example.login-check.example')).toBeTruthy();
    expect(within(await card('Boss three')).getByText('ceo@xn--crp-tdd.example')).toBeTruthy();
    expect(within(await card('Boss four')).getByText('ceo[U+200B]@corp.example')).toBeTruthy();
    const fifth = await card('Boss five');
    expect(within(fifth).getByText('c\u0435o@corp.example')).toBeTruthy();
    expect(within(fifth).getByText(/mixes letters from different alphabets/)).toBeTruthy();
    expect(within(await card('Boss')).queryByText(/mixes letters/)).toBeNull();
  });

  it('reports a failed update', async () => {
    const api = apiWith().on(`PATCH /users/contacts/${encodeURIComponent(ada.email)}`, () => {
      throw apiError(500, 'INTERNAL');
    });
    renderScreen(<ContactsPage />, { api });
    await user.click(await screen.findByRole('button', { name: 'Edit Ada Lovelace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit contact' });
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), '!');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await findSnackbar('Error updating contact!')).toBeTruthy();
  });

  it('deletes a contact after a confirmation naming it', async () => {
    let contacts = [ada, alan];
    const api = apiWith()
      .on('GET /users/contacts', () => ({ contacts }))
      .on(`DELETE /users/contacts/${encodeURIComponent(alan.email)}`, () => {
        contacts = [ada];
        return { ok: true };
      });
    renderScreen(<ContactsPage />, { api });
    await user.click(await screen.findByRole('button', { name: 'Delete Alan Turing' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete contact' });
    expect(within(dialog).getByText('Alan Turing')).toBeTruthy();
    expect(within(dialog).getByText(/alan@example\.com/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Contact deleted successfully!')).toBeTruthy();
    await waitFor(() => {
      expect(screen.queryByRole('article', { name: 'Alan Turing' })).toBeNull();
    });
    expect(screen.getByRole('article', { name: 'Ada Lovelace' })).toBeTruthy();
  });

  it('reports a failed delete', async () => {
    const api = apiWith().on(`DELETE /users/contacts/${encodeURIComponent(alan.email)}`, () => {
      throw apiError(500, 'INTERNAL');
    });
    renderScreen(<ContactsPage />, { api });
    await user.click(await screen.findByRole('button', { name: 'Delete Alan Turing' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete contact' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await findSnackbar('Error deleting contact!')).toBeTruthy();
  });

  it('invites an unverified contact, then shows a disabled Invited', async () => {
    const api = apiWith().on('POST /users/invitations', () => ({ ok: true }));
    renderScreen(<ContactsPage />, { api });
    const alanCard = await card('Alan Turing');
    await user.click(await within(alanCard).findByRole('button', { name: 'Invite' }));
    expect(await screen.findByText('Invite sent successfully!')).toBeTruthy();
    expect(api.callsTo('POST /users/invitations')[0]?.body).toEqual({ to: 'alan@example.com' });
    const invited = await within(alanCard).findByRole('button', { name: 'Invited' });
    expect((invited as HTMLButtonElement).disabled).toBe(true);
    expect(within(alanCard).queryByRole('button', { name: 'Invite' })).toBeNull();
  });

  it('shows Invited for a contact the server says was invited', async () => {
    const api = apiWith([{ ...alan, invited: true }]);
    renderScreen(<ContactsPage />, { api });
    const invited = await within(await card('Alan Turing')).findByRole('button', { name: 'Invited' });
    expect((invited as HTMLButtonElement).disabled).toBe(true);
  });

  it('offers Invite when the key lookup fails, even if the server recorded an invitation', async () => {
    const api = apiWith([{ ...alan, invited: true }]).on(keyOf(alan.email), () => {
      throw apiError(500, 'INTERNAL');
    });
    renderScreen(<ContactsPage />, { api });
    const alanCard = await card('Alan Turing');
    expect(await within(alanCard).findByRole('button', { name: 'Invite' })).toBeTruthy();
    expect(within(alanCard).getByText('Unverified')).toBeTruthy();
  });

  it('reports a failed invitation', async () => {
    const api = apiWith().on('POST /users/invitations', () => {
      throw apiError(500, 'INTERNAL');
    });
    renderScreen(<ContactsPage />, { api });
    await user.click(await within(await card('Alan Turing')).findByRole('button', { name: 'Invite' }));
    expect(await findSnackbar('Error inviting contact!')).toBeTruthy();
    expect(within(await card('Alan Turing')).getByRole('button', { name: 'Invite' })).toBeTruthy();
  });

  it('opens the share-files modal for a verified contact', async () => {
    const shared: string[] = [];
    function FakeShareModal({ opened, contact: target }: ShareFilesModalProps) {
      if (opened && target !== null) shared.push(target.publicKey ?? 'none');
      return opened ? <p>Sharing with {target?.name}</p> : null;
    }
    renderScreen(<ContactsPage shareFilesModal={FakeShareModal} />, { api: apiWith() });
    await user.click(await within(await card('Ada Lovelace')).findByRole('button', { name: 'Share files' }));
    expect(await screen.findByText('Sharing with Ada Lovelace')).toBeTruthy();
    expect(shared[0]).toBe('AAAA');
  });

  it("opens the file screens' share-files modal for a verified contact", async () => {
    const api = apiWith().on('GET /users/files?limit=500', () => ({ files: [], count: 0 }));
    renderScreen(<ContactsPage />, { api, route: '/contacts' });
    await user.click(await within(await card('Ada Lovelace')).findByRole('button', { name: 'Share files' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share files with Ada Lovelace' });
    expect(within(dialog).getByText('ada@example.com')).toBeTruthy();
    expect(await within(dialog).findByText(/You have no files yet/)).toBeTruthy();
  });

  it('shows the contact limit text and disables adding at the limit', async () => {
    renderScreen(<ContactsPage />, { api: apiWith([ada, alan], { maxContacts: 2 }) });
    expect(await screen.findByText('You have reached your contact limit.')).toBeTruthy();
    const add = screen.getByRole<HTMLButtonElement>('button', { name: 'Add contact' });
    expect(add.disabled).toBe(true);
  });

  it('does not show the limit text below the limit', async () => {
    renderScreen(<ContactsPage />, { api: apiWith([ada, alan], { maxContacts: 3 }) });
    await card('Ada Lovelace');
    await waitFor(() => {
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Add contact' }).disabled).toBe(false);
    });
    expect(screen.queryByText('You have reached your contact limit.')).toBeNull();
  });

  it('reports a failed load', async () => {
    const api = apiWith().on('GET /users/contacts', () => {
      throw apiError(500, 'INTERNAL');
    });
    renderScreen(<ContactsPage />, { api });
    expect(await findSnackbar('Error loading contacts!')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
