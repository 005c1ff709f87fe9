import { expect, test } from '@playwright/test';
import { readyPerson } from '../helpers/accounts.js';
import { newPerson } from '../helpers/auth.js';

/**
 * The shell a signed-in person sees: the sidebar names them, /landing offers "Open Coffer" rather than
 * "Log in", and a part of the app that fails to load sends them to /landing with what happened and a
 * "Try again" that works once the network is back (spec section 2: a navigation error goes to /landing).
 */

test('signed in: the sidebar names the person, /landing offers Open Coffer, a failed page load recovers', async ({
  page,
}) => {
  const person = newPerson('shell');
  await readyPerson(page, person);
  const sidebar = page.getByLabel('Sidebar');
  await expect(sidebar.getByRole('link', { name: `Profile ${person.name}` })).toBeVisible();
  // Not an admin: no Feedback entry.
  await expect(sidebar.getByRole('link', { name: 'Feedback' })).toHaveCount(0);

  await page.goto('/landing');
  await expect(page.getByRole('link', { name: 'Open Coffer' }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: /Log in/ })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Create account' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Open Coffer' }).first().click();
  await expect(page).toHaveURL(/\/new$/);

  // The My Files part of the app cannot be fetched (a dropped connection, or a deploy renamed it).
  await page.route('**/assets/MyFilesPage-*.js', (route) => route.abort('internetdisconnected'));
  await sidebar.getByRole('link', { name: 'My Files' }).click();
  await expect(page).toHaveURL(/\/landing$/);
  const alert = page.getByRole('alert').filter({ hasText: 'That page could not be loaded' });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText('Check your connection and try again.');

  await page.unroute('**/assets/MyFilesPage-*.js');
  await alert.getByRole('button', { name: 'Try again' }).click();
  await expect(page).toHaveURL(/\/myfiles$/);
  await expect(page.getByRole('heading', { level: 1, name: 'My Files' })).toBeVisible();
});
