import { expect, type Page } from '@playwright/test';
import type { TestPerson } from './auth.js';
import { snackbar } from './files.js';

/** Contacts → Add Contact → the person's name and address → "Contact added successfully!". */
export async function addContact(page: Page, person: Pick<TestPerson, 'name' | 'email'>): Promise<void> {
  await page.getByRole('link', { name: 'Contacts' }).first().click();
  await page.getByRole('button', { name: 'Add Contact', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add contact' });
  await dialog.getByLabel(/^Name/).fill(person.name);
  await dialog.getByLabel(/^Email/).fill(person.email);
  await dialog.getByRole('button', { name: 'Add contact' }).click();
  await expect(snackbar(page, 'Contact added successfully!')).toBeVisible();
}
