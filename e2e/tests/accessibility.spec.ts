import { expect, test, type Page } from '@playwright/test';
import { expectNoA11yViolations, focusedElement, tabTo } from '../helpers/a11y.js';
import {
  confirmEmailByMail,
  fillSignUp,
  expectCheckInbox,
  newPerson,
  setUpEncryption,
  signIn,
} from '../helpers/auth.js';

/**
 * Every screen passes axe-core (no serious or critical violation, colour contrast included) at 1280 px,
 * works with the keyboard alone, and stays usable at 390 px. One account serves every signed-in screen.
 */

test.describe.configure({ mode: 'serial' });

let page: Page;
const person = newPerson('a11y');

test.beforeAll(async ({ browser }) => {
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
});
test.afterAll(async () => {
  await page.close();
});

const h1 = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });

test('public screens and the identity provider pages', async () => {
  await page.goto('/landing');
  await expect(h1('Your files, encrypted before they leave your device')).toBeVisible();
  await expectNoA11yViolations(page, 'landing');

  await page.goto('/landing?reason=invite-email&fileId=inviter%40example.com');
  await expect(page.getByText('inviter@example.com invited you')).toBeVisible();
  await expectNoA11yViolations(page, 'landing (invite)');

  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectNoA11yViolations(page, 'login');

  for (const [path, title] of [
    ['/terms', 'Terms of use'],
    ['/privacy', 'Privacy'],
    ['/faq', 'Frequently asked questions'],
    ['/about', 'About Coffer'],
  ] as const) {
    await page.goto(path);
    await expect(h1(title)).toBeVisible();
    await expectNoA11yViolations(page, path);
  }

  await page.goto('/no/such/page');
  await expect(h1('Page not found')).toBeVisible();
  await expectNoA11yViolations(page, 'not found');

  // The embedded identity provider: sign-in, sign-up and "Check your inbox".
  await page.goto('/landing');
  await page
    .getByRole('link', { name: /Log in/ })
    .first()
    .click();
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await expectNoA11yViolations(page, 'identity provider: sign in');
  await page.goto('/landing');
  await page.getByRole('link', { name: 'Create account' }).first().click();
  await expect(page.getByLabel('Full name')).toBeVisible();
  await expectNoA11yViolations(page, 'identity provider: sign up');
  await fillSignUp(page, person);
  await expectCheckInbox(page);
  await expectNoA11yViolations(page, 'identity provider: check your inbox');
});

test('signed-in screens', async () => {
  await confirmEmailByMail(page, person);
  await signIn(page, person);
  await expect(h1('Set Up Encryption')).toBeVisible();
  await expectNoA11yViolations(page, 'unlock (set up)');
  await setUpEncryption(page, person.masterKey);

  const screens = [
    ['/new', 'New Upload'],
    ['/myfiles', 'My Files'],
    ['/sharedwithme', 'Shared With Me'],
    ['/contacts', 'Contacts'],
    ['/profile', person.name],
    ['/feedback', /Feedback/],
    ['/invite/someone%40example.com', /./],
  ] as const;
  for (const [path, title] of screens) {
    await page.goto(path);
    await expect(h1(title)).toBeVisible();
    // Lists and cards finish loading before the scan.
    await expect(page.locator('[aria-busy="true"], .mantine-Skeleton-root')).toHaveCount(0);
    await expectNoA11yViolations(page, path);
  }
  // A snackbar (its close button is named) over New Upload.
  await page.goto('/new');
  const same = { name: 'twice.txt', mimeType: 'text/plain', buffer: Buffer.from('twice') };
  await page.locator('input[type="file"]').setInputFiles([same]);
  await page.locator('input[type="file"]').setInputFiles([same]);
  await expect(page.getByRole('status').filter({ hasText: 'File already added' })).toBeVisible();
  await expectNoA11yViolations(page, 'new upload with a snackbar');
  await page.goto('/landing');
  await expect(page.getByRole('link', { name: 'Open Coffer' }).first()).toBeVisible();
  await expectNoA11yViolations(page, 'landing (signed in)');
});

test('keyboard alone: tab order reaches the main actions, focus is visible, a modal traps and returns focus', async () => {
  await page.goto('/contacts');
  await expect(h1('Contacts')).toBeVisible();
  await page.locator('body').focus();
  await tabTo(page, /^Add contact$/);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  // Focus stays inside the modal however far one tabs.
  for (let i = 0; i < 12; i += 1) {
    await page.keyboard.press('Tab');
    expect((await focusedElement(page)).inDialog).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect((await focusedElement(page)).name).toMatch(/^Add contact$/);

  await page.goto('/new');
  await expect(h1('New Upload')).toBeVisible();
  await page.locator('body').focus();
  await tabTo(page, /Drop files here or click to upload/);

  await page.goto('/myfiles');
  await expect(h1('My Files')).toBeVisible();
  await page.locator('body').focus();
  await tabTo(page, /^Search/);
});

test('390 px wide: no sideways scrolling, and the menu reaches every screen', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of ['/new', '/myfiles', '/sharedwithme', '/contacts', '/profile']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
  }
  await expectNoA11yViolations(page, 'profile at 390 px');
  await page
    .getByRole('button', { name: /navigation|menu/i })
    .first()
    .click();
  await page.getByLabel('Sidebar').getByRole('link', { name: 'Contacts' }).click();
  await expect(h1('Contacts')).toBeVisible();
});
