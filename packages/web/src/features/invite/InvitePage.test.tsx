import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it } from 'vitest';
import { contact, createFakeApi, renderScreen, testUser } from '../../test/render-screen';
import { InvitePage } from './InvitePage';

afterEach(() => {
  act(() => {
    notifications.clean();
  });
});

const route = '/invite/:id';

describe('Invite page', () => {
  it('welcomes the user and offers to add the inviter as a contact', async () => {
    let contacts = [contact({ name: 'Ada', email: 'ada@example.com' })];
    const api = createFakeApi({
      'GET /users/contacts': () => ({ contacts }),
      'POST /users/contacts': ({ body }) => {
        const added = contact(body as { name: string; email: string });
        contacts = [...contacts, added];
        return added;
      },
    });
    const { router } = renderScreen(<InvitePage />, {
      api,
      route,
      path: '/invite/alice%40example.com?reason=invite-email',
    });
    expect(
      screen.getByRole('heading', {
        level: 1,
        name: 'Welcome! You can now exchange end-to-end encrypted files.',
      }),
    ).toBeTruthy();
    const add = await screen.findByRole('button', { name: 'Add alice@example.com as a contact' });
    await waitFor(() => {
      expect(add.hasAttribute('data-loading')).toBe(false);
    });
    await userEvent.click(add);
    const dialog = await screen.findByRole('dialog', { name: 'Add contact' });
    expect(within(dialog).getByRole<HTMLInputElement>('textbox', { name: /Email/ }).value).toBe(
      'alice@example.com',
    );
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Alice');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add contact' }));
    expect(await screen.findByText('Contact added successfully!')).toBeTruthy();
    expect(await screen.findByText('alice@example.com is in your contacts.')).toBeTruthy();
    expect(api.callsTo('POST /users/contacts')[0]?.body).toEqual({
      name: 'Alice',
      email: 'alice@example.com',
    });
    await userEvent.click(screen.getByRole('link', { name: 'Go to Contacts' }));
    expect(router.state.location.pathname).toBe('/contacts');
  });

  it('prefills the inviter’s name as the server knows it from the invitation', async () => {
    const api = createFakeApi({
      'GET /users/contacts': () => ({ contacts: [] }),
      'GET /users/invitations/received': () => ({
        invitations: [{ email: 'alice@example.com', name: 'Alice Liddell' }],
      }),
      'POST /users/contacts': ({ body }) => contact(body as { name: string; email: string }),
    });
    renderScreen(<InvitePage />, { api, route, path: '/invite/alice%40example.com' });
    const add = await screen.findByRole('button', { name: 'Add alice@example.com as a contact' });
    await waitFor(() => {
      expect(add.hasAttribute('data-loading')).toBe(false);
    });
    await userEvent.click(add);
    const dialog = await screen.findByRole('dialog', { name: 'Add contact' });
    expect(within(dialog).getByRole<HTMLInputElement>('textbox', { name: /Name/ }).value).toBe(
      'Alice Liddell',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add contact' }));
    expect(await screen.findByText('alice@example.com is in your contacts.')).toBeTruthy();
    expect(api.callsTo('POST /users/contacts')[0]?.body).toEqual({
      name: 'Alice Liddell',
      email: 'alice@example.com',
    });
  });

  it('says when the inviter is already a contact', async () => {
    const api = createFakeApi({
      'GET /users/contacts': () => ({ contacts: [contact({ name: 'Alice', email: 'alice@example.com' })] }),
    });
    renderScreen(<InvitePage />, { api, route, path: '/invite/Alice%40Example.com' });
    expect(await screen.findByText('alice@example.com is in your contacts.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /as a contact/ })).toBeNull();
  });

  it('does not offer to add the user themselves or an id that is not an email', () => {
    const api = createFakeApi();
    const { unmount } = renderScreen(<InvitePage />, {
      api,
      route,
      path: `/invite/${encodeURIComponent(testUser.email ?? '')}`,
    });
    expect(screen.queryByRole('button', { name: /as a contact/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Go to Contacts' }).getAttribute('href')).toBe('/contacts');
    expect(screen.getByRole('link', { name: 'New Upload' }).getAttribute('href')).toBe('/new');
    unmount();

    renderScreen(<InvitePage />, { api, route, path: '/invite/file-123' });
    expect(screen.queryByRole('button', { name: /as a contact/ })).toBeNull();
    expect(api.calls).toHaveLength(0);
  });
});
