import { expect, test, type Page } from '@playwright/test';
import { readyPerson } from '../helpers/accounts.js';
import {
  confirmEmailByMail,
  confirmOnLinkPage,
  expectCheckInbox,
  fillSignIn,
  finishProviderLogout,
  newPerson,
  openConfirmationLink,
  setUpEncryption,
  signIn,
  startSignUp,
  unlockEncryption,
} from '../helpers/auth.js';
import { linkIn, mailSubjects, waitForMail } from '../helpers/mail.js';

/**
 * Verified identities (issue 12) in a real browser against the server as `npm start` runs it: the
 * embedded identity provider mails a confirmation link (read from the outbox folder) and the app
 * keeps an unverified account at "Verify your email"; password reset by mail; and an address
 * pre-registered by someone else stays its real owner's.
 */

/** With E2E_SCREENSHOT_DIR set: the page at 1280 px and 390 px wide, for a person to look at. */
async function screenshots(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOT_DIR;
  if (dir === undefined || dir === '') return;
  const size = page.viewportSize() ?? { width: 1280, height: 720 };
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `${dir}/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${dir}/${name}-390.png`, fullPage: true });
  await page.setViewportSize(size);
}

const verifyHeading = (page: Page) => page.getByRole('heading', { level: 1, name: 'Verify your email' });
const incorrectPassword = (page: Page) => page.getByText('Incorrect email or password.');

/** From /landing: Log in → the provider's sign-in page, filled in; the caller checks where it ends. */
async function trySignIn(page: Page, person: { email: string; password: string }): Promise<void> {
  await page.goto('/landing');
  await page
    .getByRole('link', { name: /Log in/ })
    .first()
    .click();
  await fillSignIn(page, person);
}

test('a new person: sign-up, the confirmation mail, sign-in, set-up, My Files', async ({ page }) => {
  const person = newPerson('verified');
  await startSignUp(page, person);
  await screenshots(page, 'idp-check-inbox');
  // The sign-up no longer signs in: nothing of a session in the app yet.
  expect(
    await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('oidc.user:'))),
  ).toEqual([]);

  const mail = await openConfirmationLink(page, person);
  await screenshots(page, 'idp-confirm-email');
  await confirmOnLinkPage(page, person);
  await screenshots(page, 'idp-email-confirmed');

  // "Continue to Coffer" leads to the app, which asks to log in (the sign-up made no session).
  await page.getByRole('link', { name: 'Continue to Coffer' }).click();
  await expect(page).toHaveURL(/\/landing$/);
  await signIn(page, person);
  await setUpEncryption(page, person.masterKey);
  await page.getByRole('link', { name: 'My Files' }).click();
  await expect(page).toHaveURL(/\/myfiles$/);
  await expect(page.getByText('No files found')).toBeVisible();

  // A used confirmation link does not work twice.
  await page.goto(linkIn(mail, `${new URL(page.url()).origin}/idp/email/verify?token=`));
  await expect(page.getByRole('button', { name: 'Confirm email address' })).toHaveCount(0);
});

test('an unverified person who signs in gets "Verify your email", resends, confirms, goes on', async ({
  page,
  context,
}) => {
  const person = newPerson('unverified');
  await startSignUp(page, person);
  const first = await waitForMail(person.email, mailSubjects.verify);

  await trySignIn(page, person);
  await expect(page).toHaveURL(/\/unlock$/);
  await expect(verifyHeading(page)).toBeVisible();
  await expect(page.getByText(person.email, { exact: true })).toBeVisible();
  await expect(page.getByLabel(/^Master unlock key/)).toHaveCount(0);
  await screenshots(page, 'app-verify-email');

  // Not confirmed yet: the app says so and stays.
  await page.getByRole('button', { name: 'I’ve confirmed my email' }).click();
  await expect(page.getByText(/Your address is not confirmed yet/)).toBeVisible();
  await expect(verifyHeading(page)).toBeVisible();

  // Any route leads back here while unverified.
  await page.goto('/myfiles');
  await expect(page).toHaveURL(/\/unlock$/);
  await expect(verifyHeading(page)).toBeVisible();

  await page.getByRole('button', { name: 'Resend email' }).click();
  await expect(page.getByText(`We sent a new confirmation link to ${person.email}.`)).toBeVisible();
  const resent = await waitForMail(person.email, mailSubjects.verify, { seen: [first] });
  expect(resent.file).not.toBe(first.file);

  // The person opens the newest mail in another tab and confirms there.
  const mailTab = await context.newPage();
  await mailTab.goto('/landing');
  await confirmEmailByMail(mailTab, person, { seen: [first] });
  await mailTab.close();

  await page.getByRole('button', { name: 'I’ve confirmed my email' }).click();
  await setUpEncryption(page, person.masterKey);
  // On to the path the person asked for while unverified.
  await expect(page).toHaveURL(/\/myfiles$/);
});

test('password reset by mail: old password refused, new one works, other sessions end', async ({
  browser,
}) => {
  const person = newPerson('reset');
  // A browser where the person was signed in before the reset (e.g. another computer).
  const before = await browser.newContext();
  const earlier = await before.newPage();
  await readyPerson(earlier, person);

  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/landing');
  await page
    .getByRole('link', { name: /Log in/ })
    .first()
    .click();
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Reset your password' })).toBeVisible();
  await screenshots(page, 'idp-forgot-password');
  await page.getByLabel('Email').fill(person.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expectCheckInbox(page);
  await screenshots(page, 'idp-reset-check-inbox');

  const mail = await waitForMail(person.email, mailSubjects.reset);
  const origin = new URL(page.url()).origin;
  await page.goto(linkIn(mail, `${origin}/idp/password/reset?token=`));
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeVisible();
  await screenshots(page, 'idp-new-password');
  const newPassword = `${person.password}-new`;
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Password changed' })).toBeVisible();
  await screenshots(page, 'idp-password-changed');
  await expect(page.getByRole('link', { name: 'Continue to Coffer' })).toBeVisible();

  // The old password no longer signs in.
  await trySignIn(page, person);
  await expect(incorrectPassword(page)).toBeVisible();
  await expect(page).toHaveURL(/\/idp\//);

  // The new one does; the master unlock key is unchanged (the reset touches sign-in only).
  await fillSignIn(page, { email: person.email, password: newPassword });
  await expect(page).toHaveURL(/\/unlock$/);
  await unlockEncryption(page, person.masterKey);

  // The earlier browser's refresh token was revoked. Its access token lives 15 minutes; make it
  // stale now (what the clock would do) so the next API call renews, is refused, and logs out.
  await earlier.evaluate(() => {
    for (const key of Object.keys(localStorage).filter((k) => k.startsWith('oidc.user:'))) {
      const stored = JSON.parse(localStorage.getItem(key) ?? '{}') as { expires_at?: number };
      stored.expires_at = Math.floor(Date.now() / 1000) - 60;
      localStorage.setItem(key, JSON.stringify(stored));
    }
  });
  await earlier.getByRole('link', { name: 'My Files' }).click();
  await finishProviderLogout(earlier, '/landing');
  expect(await earlier.evaluate(() => Object.keys(localStorage))).toEqual([]);

  await before.close();
  await context.close();
});

test('an address pre-registered by someone else stays its owner’s', async ({ browser }) => {
  const owner = newPerson('owner');
  const attacker = { ...newPerson('attacker'), email: owner.email };

  // The attacker signs up with the owner's address and never confirms; they can sign in, but only
  // to "Verify your email".
  const attackerContext = await browser.newContext();
  const attackerPage = await attackerContext.newPage();
  await startSignUp(attackerPage, attacker);
  const attackersInboxPage = await attackerPage.locator('body').innerText();
  const attackersMail = await waitForMail(owner.email, mailSubjects.verify);
  await trySignIn(attackerPage, attacker);
  await expect(verifyHeading(attackerPage)).toBeVisible();

  // The owner signs up with the same address: the same "Check your inbox", nothing says the
  // address is taken.
  const ownerContext = await browser.newContext();
  const page = await ownerContext.newPage();
  await startSignUp(page, owner);
  expect(await page.locator('body').innerText()).toBe(attackersInboxPage);
  await confirmEmailByMail(page, owner, { seen: [attackersMail] });

  // The owner signs in with their own password and sets up encryption.
  await signIn(page, owner);
  await setUpEncryption(page, owner.masterKey);

  // The attacker's password no longer works (tried from a browser without their earlier session)…
  const elsewhere = await browser.newContext();
  const attackerAgain = await elsewhere.newPage();
  await trySignIn(attackerAgain, attacker);
  await expect(incorrectPassword(attackerAgain)).toBeVisible();
  await elsewhere.close();

  // …and the session they opened before the confirmation does not become the owner's.
  // Renewing its tokens fails (the account it signed in to is gone): a logout nobody pressed, which
  // ends at /landing like every other.
  await attackerPage.getByRole('button', { name: 'I’ve confirmed my email' }).click();
  await finishProviderLogout(attackerPage, '/landing');
  await expect(attackerPage.getByRole('heading', { name: 'Set Up Encryption' })).toHaveCount(0);

  await attackerContext.close();
  await ownerContext.close();
});
