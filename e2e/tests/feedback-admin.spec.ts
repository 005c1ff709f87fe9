import { expect, test } from '@playwright/test';
import { readyPerson } from '../helpers/accounts.js';
import { newPerson, type TestPerson } from '../helpers/auth.js';

/** The admin Feedback page (/feedback) on the real server. */

test('a user who is not an admin is told they have no access', async ({ page }) => {
  await readyPerson(page, newPerson('notadmin'));
  await expect(page.getByLabel('Sidebar').getByRole('link', { name: 'My Files' })).toBeVisible();
  await expect(page.getByLabel('Sidebar').getByRole('link', { name: 'Feedback' })).toHaveCount(0);
  await page.goto('/feedback');
  await expect(page.getByText("You don't have access to this page")).toBeVisible();
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0);
});

/** Admins are the accounts whose email is in the server's ADMIN_EMAILS, set by the Playwright config. */
const adminEmail = process.env.COFFER_E2E_ADMIN_EMAIL ?? 'admin.e2e@example.com';

test('an admin lists feedback and deletes an entry', async ({ page, browser }) => {
  // Somebody sends feedback from their Profile.
  const writerContext = await browser.newContext();
  const writerPage = await writerContext.newPage();
  const writer = newPerson('writer');
  await readyPerson(writerPage, writer);
  await writerPage.goto('/profile');
  const message = `Feedback ${writer.email}`;
  await writerPage.getByLabel('Your feedback').fill(message);
  await writerPage.getByRole('button', { name: 'Send feedback' }).click();
  await expect(writerPage.getByText('Thank you for your feedback!')).toBeVisible();
  await writerContext.close();

  const admin: TestPerson = { ...newPerson('admin'), email: adminEmail };
  await readyPerson(page, admin);
  // Admins reach the page from the sidebar.
  await page.getByLabel('Sidebar').getByRole('link', { name: 'Feedback' }).click();
  await expect(page).toHaveURL(/\/feedback$/);
  const entry = page.getByRole('article', { name: `Feedback from ${writer.email}` });
  await expect(entry.getByText(message)).toBeVisible();
  await entry.getByRole('button', { name: `Delete feedback from ${writer.email}` }).click();
  await page.getByRole('dialog', { name: 'Delete feedback' }).getByRole('button', { name: 'Delete' }).click();
  await expect(entry).toBeHidden();
  await page.reload();
  await expect(page.getByRole('article', { name: `Feedback from ${writer.email}` })).toHaveCount(0);
});
