import { expect, test } from '@playwright/test';
import { readyPerson } from '../helpers/accounts.js';
import {
  browserSessionState,
  fillSignIn,
  finishProviderLogout,
  logoutFromSidebar,
  newPerson,
  signIn,
  signUpReady,
  unlockEncryption,
} from '../helpers/auth.js';

/**
 * The login session and the navigation rules (issue 5 part 4, issue 6 part 2) against the real
 * server and its embedded identity provider.
 */

test('sign up, set up encryption, stay unlocked across a reload, log out to /landing', async ({ page }) => {
  const person = newPerson('signup');
  await signUpReady(page, person);

  // Signed in and unlocked: the app shell is there.
  const sidebar = page.getByLabel('Sidebar');
  await expect(sidebar).toBeVisible();
  await expect(sidebar.getByRole('button', { name: 'Logout' })).toBeVisible();

  // Session storage holds flags and a handle only: never the master key or key material.
  const unlocked = await browserSessionState(page);
  expect(unlocked.session.encryptionInitialized).toBe('true');
  expect(unlocked.session.encryptionDerivedKey).toMatch(/^[0-9a-f]{32}$/);
  expect(JSON.stringify(unlocked.session)).not.toContain(person.masterKey);
  expect(unlocked.storedKeys).toBe(1);
  expect(unlocked.local.some((key) => key.startsWith('oidc.user:'))).toBe(true);

  // A reload restores the unlocked key from IndexedDB: no unlock screen.
  await page.goto('/contacts');
  await page.reload();
  await expect(page).toHaveURL(/\/contacts$/);
  await expect(page.getByLabel('Sidebar')).toBeVisible();

  await logoutFromSidebar(page);
  const loggedOut = await browserSessionState(page);
  expect(loggedOut.local).toEqual([]);
  // (React Router keeps scroll positions there; nothing of the session is left.)
  for (const key of [
    'redirectAfterUnlock',
    'needsNewEncryption',
    'encryptionInitialized',
    'encryptionDerivedKey',
  ]) {
    expect(loggedOut.session[key]).toBeUndefined();
  }
  expect(loggedOut.storedKeys).toBe(0);

  // Signed out for real: an auth-required route goes back to the landing page.
  await page.goto('/myfiles');
  await expect(page).toHaveURL(/\/landing$/);
});

test('sign in again and unlock with the master key; a wrong key is refused', async ({ page }) => {
  const person = newPerson('signin');
  await readyPerson(page, person);
  await logoutFromSidebar(page);

  await signIn(page, person);
  await expect(page.getByRole('heading', { level: 1, name: 'Unlock Encryption' })).toBeVisible();
  await expect(page.getByLabel('Sidebar')).toHaveCount(0);

  await page.getByLabel(/^Master unlock key/).fill(`${person.masterKey}-wrong`);
  await page.getByRole('button', { name: 'Unlock', exact: true }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Encryption Unlock failed. Please try again.' }).first(),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/unlock$/);

  await unlockEncryption(page, person.masterKey);
  await expect(page).toHaveURL(/\/new$/);
});

test('a deep link while signed out survives the sign-in and the unlock', async ({ page }) => {
  const person = newPerson('deeplink');
  await readyPerson(page, person);
  await logoutFromSidebar(page);

  await page.goto('/contacts');
  await expect(page).toHaveURL(/\/landing$/);
  await page
    .getByRole('link', { name: /Log in/ })
    .first()
    .click();
  await fillSignIn(page, person);
  await expect(page).toHaveURL(/\/unlock$/);
  await unlockEncryption(page, person.masterKey);
  await expect(page).toHaveURL(/\/contacts$/);
});

test('/share/{id} and /invite/{id} send a visitor to the landing page with the reason', async ({ page }) => {
  await page.goto('/share/file-123');
  await expect(page).toHaveURL(/\/landing\?reason=file-share&fileId=file-123$/);

  await page.goto('/invite/alice%40example.com');
  await expect(page).toHaveURL(/\/landing\?reason=invite-email&fileId=alice%40example\.com$/);
  await expect(page.getByText('alice@example.com', { exact: false }).first()).toBeVisible();
});

test('/unlock without a sign-in goes to the landing page', async ({ page }) => {
  await page.goto('/unlock');
  await expect(page).toHaveURL(/\/landing$/);
});

test('a session whose token cannot be renewed is logged out, says so, and returns after login', async ({
  page,
}) => {
  const person = newPerson('expired');
  await readyPerson(page, person);
  await page.getByRole('link', { name: 'Contacts' }).first().click();
  await expect(page).toHaveURL(/\/contacts$/);

  // The access token has expired and the refresh token is no longer accepted.
  await page.evaluate(() => {
    for (const key of Object.keys(localStorage)) {
      if (!key.startsWith('oidc.user:')) continue;
      const user = JSON.parse(localStorage.getItem(key) ?? '{}') as Record<string, unknown>;
      user.expires_at = Math.floor(Date.now() / 1000) - 60;
      user.refresh_token = 'revoked-refresh-token';
      localStorage.setItem(key, JSON.stringify(user));
    }
  });
  await page.reload();
  await expect(page).toHaveURL(/\/idp\/|\/landing$/);
  // The provider confirms the app's own logout by itself (a script posts its form); it shows its
  // "Log out" button only where that script cannot run.
  await finishProviderLogout(page, '/landing');
  await expect(page.getByText('Your session ended. Log in again.')).toBeVisible();
  const state = await browserSessionState(page);
  expect(state.local).toEqual([]);
  expect(state.storedKeys).toBe(0);

  // The remembered path outlived the session: logging in again returns to it.
  await page
    .getByRole('link', { name: /Log in/ })
    .first()
    .click();
  await fillSignIn(page, person);
  await unlockEncryption(page, person.masterKey);
  await expect(page).toHaveURL(/\/contacts$/);
});
