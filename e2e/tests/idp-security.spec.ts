import { copyFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { readyPerson } from '../helpers/accounts.js';
import { fillSignIn, logoutFromSidebar, newPerson, unlockEncryption } from '../helpers/auth.js';

/**
 * The embedded identity provider's sign-in security (issue 29, item 4) in Chromium against the real
 * server: an authenticator app (codes computed here with otpauth), a passkey made by Chromium's virtual
 * authenticator (DevTools protocol), and "sign out everywhere" ending another browser's session.
 */

/** Saves a screenshot beside the test's output (and under SCREENSHOT_DIR when set, to look at). */
async function shot(page: Page, name: string): Promise<void> {
  const path = test.info().outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  const dir = process.env.SCREENSHOT_DIR;
  if (dir !== undefined) copyFileSync(path, `${dir}/${name}.png`);
}

/** Profile → Security → "Manage sign-in security": the provider's page. */
async function openSecurityPage(page: Page): Promise<void> {
  await page.goto('/profile');
  await page.getByRole('link', { name: 'Manage sign-in security' }).click();
  await expect(page).toHaveURL(/\/idp\/account$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign-in security' })).toBeVisible();
}

function codeAt(secret: string, at: number): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  return totp.generate({ timestamp: at });
}

test('turn on an authenticator app, then sign in with the password and a code', async ({ page }) => {
  const person = newPerson('totp');
  await readyPerson(page, person);
  await openSecurityPage(page);
  await shot(page, 'security-page');

  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Set up your authenticator app' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'QR code of the key' })).toBeVisible();
  await shot(page, 'totp-enrol');
  const secret = (await page.getByLabel('Key', { exact: true }).innerText()).replaceAll(' ', '');
  await page.getByLabel('Code from the app').fill(codeAt(secret, Date.now()));
  await page.getByRole('button', { name: 'Turn on' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Two-step verification is on' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
  await shot(page, 'recovery-codes');
  await page.getByRole('link', { name: 'I have saved my recovery codes' }).click();
  await expect(page.getByText('The authenticator app is on.')).toBeVisible();

  // Sign out of the app, and back in: the password, then a code (of the next 30 s: enrolment used this one).
  await page.goto('/myfiles');
  await logoutFromSidebar(page);
  await page
    .getByRole('link', { name: /Log in/ })
    .first()
    .click();
  await fillSignIn(page, person);
  await expect(page.getByRole('heading', { level: 1, name: 'Two-step verification' })).toBeVisible();
  await shot(page, 'second-step');
  await page.getByLabel('Code from your authenticator app').fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'That code did not work' })).toBeVisible();
  await page.getByLabel('Code from your authenticator app').fill(codeAt(secret, Date.now() + 30_000));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/unlock$/);
  await unlockEncryption(page, person.masterKey);
});

test('add a passkey, then sign in with it and no password', async ({ page }) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });

  const person = newPerson('passkey');
  await readyPerson(page, person);
  await openSecurityPage(page);
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByText('Your passkey was added.')).toBeVisible();
  await expect(page.getByText(/^Chrome on /).first()).toBeVisible();
  await shot(page, 'security-page-passkey');

  await page.goto('/myfiles');
  await logoutFromSidebar(page);
  await page
    .getByRole('link', { name: /Log in/ })
    .first()
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to Coffer' })).toBeVisible();
  await shot(page, 'sign-in-with-passkey');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(/\/unlock$/);
  await unlockEncryption(page, person.masterKey);
});

test('"sign out everywhere" in one browser ends the session of another', async ({ page, browser }) => {
  const person = newPerson('everywhere');
  await readyPerson(page, person);

  const other = await browser.newContext();
  try {
    const phone = await other.newPage();
    await phone.goto('/landing');
    await phone
      .getByRole('link', { name: /Log in/ })
      .first()
      .click();
    await fillSignIn(phone, person);
    await expect(phone).toHaveURL(/\/unlock$/);
    await unlockEncryption(phone, person.masterKey);

    await openSecurityPage(phone);
    await expect(phone.getByText(/Signed in .* last seen/)).toHaveCount(2);
    await phone.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect(phone.getByRole('heading', { level: 1, name: 'Signed out everywhere' })).toBeVisible();
    await shot(phone, 'signed-out-everywhere');
  } finally {
    await other.close();
  }

  // The first browser still holds its tokens; its next API call is refused and leads to sign-in.
  await page.goto('/contacts');
  await expect(page).toHaveURL(/\/(landing|login)/);
});
