import { expect, test, type Page } from '@playwright/test';
import { createConfirmedAccount, readyPerson } from '../helpers/accounts.js';
import {
  browserSessionState,
  finishProviderLogout,
  logoutFromSidebar,
  newPerson,
  setUpEncryption,
  signIn,
  skipRecoveryKit,
} from '../helpers/auth.js';

/** The API as the signed-in page calls it, with the access token the app holds. */
async function apiGet(page: Page, path: string): Promise<{ status: number; body: unknown }> {
  return page.evaluate(async (url) => {
    const key = Object.keys(localStorage).find((k) => k.startsWith('oidc.user:')) ?? '';
    const user = JSON.parse(localStorage.getItem(key) ?? '{}') as { access_token?: string };
    const response = await fetch(url, { headers: { Authorization: `Bearer ${user.access_token ?? ''}` } });
    return { status: response.status, body: (await response.json()) as unknown };
  }, `/api${path}`);
}

test('set-up checks the master key rules and the confirmation before creating keys', async ({ page }) => {
  const person = newPerson('rules');
  // Signed in without keys: the account is made over HTTP (sign-up's own pages are identity-verification's).
  await createConfirmedAccount(person);
  await signIn(page, person);
  await expect(page.getByRole('heading', { level: 1, name: 'Set Up Encryption' })).toBeVisible();
  const key = page.getByLabel(/^Master unlock key/);
  const confirmation = page.getByLabel(/^Confirm master unlock key/);
  await expect(key).toBeFocused();

  await page.getByRole('button', { name: 'Set up encryption' }).click();
  await expect(page.getByText('Password is required')).toBeVisible();
  await expect(page.getByText('Please confirm your password')).toBeVisible();

  for (const [value, message] of [
    ['Ab1!', 'Password must be at least 8 characters'],
    ['abcdefg1!', 'Password must contain at least one uppercase letter'],
    ['ABCDEFG1!', 'Password must contain at least one lowercase letter'],
    ['Abcdefgh!', 'Password must contain at least one number'],
    ['Abcdefgh1', 'Password must contain at least one special character'],
  ] as const) {
    await key.fill(value);
    await expect(page.getByText(message)).toBeVisible();
  }
  await key.fill(person.masterKey);
  await confirmation.fill(`${person.masterKey}x`);
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  expect((await apiGet(page, '/users/keys')).body).toEqual({ keys: [] });

  await confirmation.fill(person.masterKey);
  await page.getByRole('button', { name: 'Set up encryption' }).click();
  await expect(page.getByText('Encryption set up successfully')).toBeVisible({ timeout: 30_000 });
  await skipRecoveryKit(page);
  await expect(page).toHaveURL(/\/new$/);
});

test('a forgotten master key: reset confirmation, cancel, confirm, then a new set-up', async ({ page }) => {
  const person = newPerson('reset');
  await readyPerson(page, person);
  const before = (await apiGet(page, '/users/keys/active')).body as { keyId: string };
  await logoutFromSidebar(page);
  await signIn(page, person);

  await page.getByRole('button', { name: 'Forgot your master unlock key?' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Reset Encryption' })).toBeVisible();
  await expect(page.getByText('Files encrypted with your old key will become unreadable')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Unlock Encryption' })).toBeVisible();

  await page.getByRole('button', { name: 'Forgot your master unlock key?' }).click();
  await page.getByRole('button', { name: 'Delete keys and reset' }).click();
  // The page reloads; the message waits for the new page.
  await expect(
    page.getByText('Encryption state reset. Please set up new encryption with a new password.'),
  ).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Set Up Encryption' })).toBeVisible();
  expect((await browserSessionState(page)).session.needsNewEncryption).toBe('true');
  expect((await apiGet(page, '/users/keys')).body).toEqual({ keys: [] });

  const newKey = `${person.masterKey}-new`;
  await setUpEncryption(page, newKey);
  await expect(page).toHaveURL(/\/new$/);
  const after = (await apiGet(page, '/users/keys/active')).body as { keyId: string };
  expect(after.keyId).not.toBe(before.keyId);
  expect((await browserSessionState(page)).session.needsNewEncryption).toBeUndefined();
});

test('Logout on the unlock screen ends at /login', async ({ page }) => {
  const person = newPerson('unlocklogout');
  await createConfirmedAccount(person);
  await signIn(page, person);
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/idp\/|\/login$/);
  // The provider confirms the app's own logout by itself (one click, issue 29 item 6).
  await finishProviderLogout(page, '/login');
  await expect(page.getByRole('heading', { name: 'You have been logged out' })).toBeVisible();
  expect((await browserSessionState(page)).local).toEqual([]);
});
