import { expect, test, type Page } from '@playwright/test';
import { readyPerson } from '../helpers/accounts.js';
import { newPerson } from '../helpers/auth.js';

/** Contacts (spec section 2) against the real server: add, edit, delete, invite, verified contacts. */

/** A snackbar with exactly this text (Mantine notifications). */
function snackbar(page: Page, text: string) {
  return page.locator('.mantine-Notification-root').filter({ hasText: text }).first();
}

async function addContact(page: Page, name: string, email: string): Promise<void> {
  await page.getByRole('button', { name: 'Add contact', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add contact' });
  await dialog.getByLabel(/^Name/).fill(name);
  await dialog.getByLabel(/^Email/).fill(email);
  await dialog.getByRole('button', { name: 'Add contact' }).click();
}

test('add with validation, invite, rename and delete a contact; the invited person gets the inviter’s name', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000); // two sign-ups
  const person = newPerson('contacts');
  await readyPerson(page, person);
  await page.goto('/contacts');

  await expect(page.getByText('No contacts found')).toBeVisible();
  await expect(page.getByText('Add a contact to get started')).toBeVisible();

  // Validation.
  await page.getByRole('button', { name: 'Add Contact', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add contact' });
  await dialog.getByRole('button', { name: 'Add contact' }).click();
  await expect(dialog.getByText('Name is required.')).toBeVisible();
  await expect(dialog.getByText('Enter a valid email.')).toBeVisible();
  await dialog.getByLabel(/^Name/).fill('Not Yet A User');
  await dialog.getByLabel(/^Email/).fill('not-a-user@example');
  await dialog.getByRole('button', { name: 'Add contact' }).click();
  await expect(dialog.getByText('Enter a valid email.')).toBeVisible();
  const friend = newPerson('friend');
  await dialog.getByLabel(/^Email/).fill(friend.email);
  await dialog.getByRole('button', { name: 'Add contact' }).click();
  await expect(snackbar(page, 'Contact added successfully!')).toBeVisible();
  await expect(dialog).toBeHidden();

  // No key yet: unverified, with Invite.
  const card = page.getByRole('article', { name: 'Not Yet A User' });
  await expect(card.getByText(friend.email)).toBeVisible();
  await expect(card.getByText('Unverified', { exact: true })).toBeVisible();
  await card.getByRole('button', { name: 'Invite' }).click();
  await expect(snackbar(page, 'Invite sent successfully!')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Invited' })).toBeDisabled();

  // The server remembers the invitation.
  await page.reload();
  await expect(
    page.getByRole('article', { name: 'Not Yet A User' }).getByRole('button', { name: 'Invited' }),
  ).toBeDisabled();

  // A duplicate is refused with the spec's text.
  await addContact(page, 'Again', friend.email);
  await expect(snackbar(page, 'A contact with this email already exists')).toBeVisible();
  await page.getByRole('dialog', { name: 'Add contact' }).getByRole('button', { name: 'Cancel' }).click();

  // Rename; the email cannot change.
  await page.getByRole('button', { name: 'Edit Not Yet A User' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit contact' });
  await expect(edit.getByLabel(/^Email/)).toBeDisabled();
  await expect(edit.getByLabel(/^Email/)).toHaveValue(friend.email);
  await edit.getByLabel(/^Name/).fill('Best Friend');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(snackbar(page, 'Contact updated successfully!')).toBeVisible();
  await expect(page.getByRole('article', { name: 'Best Friend' })).toBeVisible();

  // Search by name or email.
  await addContact(page, 'Other Person', newPerson('other').email);
  await expect(snackbar(page, 'Contact added successfully!')).toBeVisible();
  await page.getByRole('textbox', { name: 'Search contacts' }).fill('best');
  await expect(page.getByRole('article')).toHaveCount(1);
  await page.getByRole('textbox', { name: 'Search contacts' }).fill(friend.email.slice(0, 12));
  await expect(page.getByRole('article', { name: 'Best Friend' })).toBeVisible();
  await expect(page.getByRole('article', { name: 'Other Person' })).toBeHidden();
  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(page.getByRole('article')).toHaveCount(2);

  // Delete after a confirmation naming the contact.
  await page.getByRole('button', { name: 'Delete Best Friend' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete contact' });
  await expect(confirm.getByText('Best Friend')).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(snackbar(page, 'Contact deleted successfully!')).toBeVisible();
  await expect(page.getByRole('article', { name: 'Best Friend' })).toBeHidden();
  await page.reload();
  await expect(page.getByRole('article')).toHaveCount(1);

  // Adding oneself is refused with its reason, not a bare failure.
  await addContact(page, 'Me', person.email);
  await expect(
    snackbar(page, 'That is your own email address. Add the people you want to exchange files with.'),
  ).toBeVisible();
  await page.getByRole('dialog', { name: 'Add contact' }).getByRole('button', { name: 'Cancel' }).click();

  // The invited friend signs up and follows the invitation: Name is the inviter's, as the server knows it.
  const friendContext = await browser.newContext();
  const friendPage = await friendContext.newPage();
  await readyPerson(friendPage, friend);
  await friendPage.goto(`/invite/${encodeURIComponent(person.email)}`);
  await friendPage.getByRole('button', { name: `Add ${person.email} as a contact` }).click();
  const addInviter = friendPage.getByRole('dialog', { name: 'Add contact' });
  await expect(addInviter.getByLabel(/^Name/)).toHaveValue(person.name);
  await addInviter.getByRole('button', { name: 'Add contact' }).click();
  await expect(friendPage.getByText(`${person.email} is in your contacts.`)).toBeVisible();
  await friendContext.close();
});

test('a contact with keys is verified, offers Share files, and shows the safety number it has', async ({
  browser,
}) => {
  // The contact signs up first, so they have a public key.
  const contactContext = await browser.newContext();
  const contactPage = await contactContext.newPage();
  const contact = newPerson('verified');
  await readyPerson(contactPage, contact);
  await contactPage.goto('/profile');
  const ownNumber = contactPage.getByLabel('Your safety number');
  await expect(ownNumber).toHaveText(/^([0-9A-F]{4} ?){16}$/);
  const contactsOwnNumber = (await ownNumber.textContent()) ?? '';

  const userContext = await browser.newContext();
  const page = await userContext.newPage();
  await readyPerson(page, newPerson('sharer'));
  await page.goto('/contacts');
  await addContact(page, 'Verified Friend', contact.email);
  await expect(snackbar(page, 'Contact added successfully!')).toBeVisible();

  const card = page.getByRole('article', { name: 'Verified Friend' });
  await expect(card.getByText('Not verified in person', { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Share files' })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Invite' })).toHaveCount(0);

  // What the sharer sees for the contact's key is what the contact sees for their own.
  await page.getByRole('button', { name: 'Edit Verified Friend' }).click();
  const seen = page.getByRole('dialog', { name: 'Edit contact' }).getByLabel('Safety number');
  await expect(seen).toHaveText(contactsOwnNumber);
  await page.getByRole('dialog', { name: 'Edit contact' }).getByRole('button', { name: 'Cancel' }).click();

  await card.getByRole('button', { name: 'Share files' }).click();
  await expect(page.getByRole('dialog', { name: 'Share files with Verified Friend' })).toBeVisible();

  await userContext.close();
  await contactContext.close();
});
