import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type BrowserContext, type Locator, type Page } from '@playwright/test';
import {
  logoutFromSidebar,
  newPerson,
  signIn,
  signUp,
  signUpReady,
  unlockEncryption,
  type TestPerson,
} from '../helpers/auth.js';
import { expectNoA11yViolations } from '../helpers/a11y.js';
import {
  downloadAndHash,
  fileCard,
  forceServiceWorkerSave,
  snackbar,
  startUpload,
  writeTextFile,
  type TestFile,
} from '../helpers/files.js';

/**
 * Issue 29, items 1-2 in the browser against the real server: Alice sets up with a recovery kit,
 * exchanges files with Bob, changes her master unlock key on Profile (the old key fails, the new one
 * unlocks), forgets it and recovers with the kit's words (same key pair: her own and Bob's files
 * still download with the same SHA-256, Bob is still pinned as verified), then makes a new kit,
 * which the old words no longer open (a stolen kit after regeneration).
 */

test.describe.configure({ mode: 'serial' });

let dir: string;
let aContext: BrowserContext;
let bContext: BrowserContext;
let a: Page;
let b: Page;
let alice: TestPerson;
let bob: TestPerson;
let own: TestFile;
let fromBob: TestFile;
/** The kit made at set-up, and the one made later on Profile. */
let firstWords: string[];
let secondWords: string[];
let currentKey: string;

test.beforeAll(async ({ browser }) => {
  dir = await mkdtemp(join(tmpdir(), 'coffer-key-recovery-'));
  own = await writeTextFile(dir, 'alice-own-notes.txt', 'RECOVERY-OWN');
  fromBob = await writeTextFile(dir, 'bob-shared-plan.txt', 'RECOVERY-SHARED');
  alice = newPerson('alice');
  bob = newPerson('bob');
  currentKey = alice.masterKey;
  aContext = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  bContext = await browser.newContext();
  a = await aContext.newPage();
  b = await bContext.newPage();
  await forceServiceWorkerSave(a);
  await forceServiceWorkerSave(b);
  // The print dialog would wait for a person: count the calls instead.
  await a.addInitScript(() => {
    (window as unknown as { printCalls: number }).printCalls = 0;
    window.print = () => {
      (window as unknown as { printCalls: number }).printCalls += 1;
    };
  });
});

test.afterAll(async () => {
  await aContext.close();
  await bContext.close();
  await rm(dir, { recursive: true, force: true });
});

/** Desktop and phone width screenshots of the page (or a part of it), attached to the report. */
async function screenshots(page: Page, name: string, part?: Locator): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const path = test.info().outputPath(`${name}-${String(width)}.png`);
    if (part === undefined) await page.screenshot({ path, fullPage: true });
    else await part.screenshot({ path });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function wordsOnScreen(page: Page): Promise<string[]> {
  const words = page.getByTestId('recovery-word');
  await expect(words).toHaveCount(24);
  return words.allInnerTexts();
}

async function addContact(page: Page, person: TestPerson): Promise<void> {
  await page.getByRole('link', { name: 'Contacts' }).first().click();
  await page.getByRole('button', { name: 'Add Contact', exact: true }).click();
  const add = page.getByRole('dialog', { name: 'Add contact' });
  await add.getByLabel(/^Name/).fill(person.name);
  await add.getByLabel(/^Email/).fill(person.email);
  await add.getByRole('button', { name: 'Add contact' }).click();
  await expect(page.getByRole('article', { name: person.name }).locator('[data-key-state]')).toHaveText(
    'Not verified in person',
  );
}

async function share(page: Page, file: TestFile, person: TestPerson): Promise<void> {
  await page.getByRole('link', { name: 'My Files' }).first().click();
  await page.getByRole('button', { name: `Share ${file.name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Share files' });
  await dialog.getByRole('checkbox', { name: person.name }).check();
  await dialog.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(snackbar(page, `${file.name} shared successfully with ${person.name}`)).toBeVisible();
}

/** Alice's own file and Bob's shared one download with the bytes uploaded, and Bob's is signed. */
async function aliceDownloadsBoth(): Promise<void> {
  await a.goto('/myfiles');
  const mine = await downloadAndHash(a, () =>
    a.getByRole('button', { name: `Download ${own.name}` }).click(),
  );
  expect(mine.sha256).toBe(own.sha256);
  await a.goto('/sharedwithme');
  const card = fileCard(a, fromBob.name);
  await expect(card.getByText(`Signed by ${bob.email.toLowerCase()}`)).toBeVisible();
  const shared = await downloadAndHash(a, () =>
    card.getByRole('button', { name: `Download ${fromBob.name}` }).click(),
  );
  expect(shared.sha256).toBe(fromBob.sha256);
}

async function signInAgain(): Promise<void> {
  await logoutFromSidebar(a);
  await signIn(a, alice);
  await expect(a.getByRole('heading', { level: 1, name: 'Unlock Encryption' })).toBeVisible();
}

async function openRecovery(): Promise<void> {
  await a.getByRole('button', { name: 'Forgot your master unlock key?' }).click();
  await expect(a.getByRole('heading', { level: 1, name: 'Reset Encryption' })).toBeVisible();
  await a.getByRole('button', { name: 'Use your recovery kit' }).click();
  await expect(a.getByRole('heading', { level: 1, name: 'Recover Encryption' })).toBeVisible();
}

test('set-up offers the recovery kit: 24 words, copy, print with a QR code, saved before leaving', async () => {
  test.setTimeout(300_000);
  await signUp(a, alice);
  await a.getByLabel(/^Master unlock key/).fill(alice.masterKey);
  await a.getByLabel(/^Confirm master unlock key/).fill(alice.masterKey);
  await a.getByRole('button', { name: 'Set up encryption' }).click();
  await expect(a.getByText('Encryption set up successfully')).toBeVisible({ timeout: 60_000 });
  await expect(a.getByRole('heading', { level: 1, name: 'Save your recovery kit' })).toBeVisible();
  await expect(a.getByRole('button', { name: 'Skip for now' })).toBeVisible();
  await screenshots(a, 'kit-offer');

  await a.getByRole('button', { name: 'Create recovery kit' }).click();
  firstWords = await wordsOnScreen(a);
  await screenshots(a, 'kit-words');
  // With the set-up snackbar, while it shows (its close button is named).
  await expectNoA11yViolations(a, 'recovery kit after set-up');
  await a.getByRole('button', { name: 'Copy words' }).click();
  expect(await a.evaluate(() => navigator.clipboard.readText())).toBe(firstWords.join(' '));

  await a.getByRole('button', { name: 'Print / save as PDF' }).click();
  const print = a.getByTestId('recovery-kit-print');
  await expect(print.getByRole('img', { name: 'QR code of the recovery words' })).toBeVisible();
  await expect(print.getByTestId('recovery-word')).toHaveText(firstWords);
  await expect(print.getByText(`Account: ${alice.email}`)).toBeVisible();
  await screenshots(a, 'kit-print', print);
  await expectNoA11yViolations(a, 'printable recovery kit');
  await a.emulateMedia({ media: 'print' });
  await a.screenshot({ path: test.info().outputPath('kit-print-media-print.png'), fullPage: true });
  await a.emulateMedia({ media: 'screen' });
  await print.getByRole('button', { name: 'Print' }).click();
  expect(await a.evaluate(() => (window as unknown as { printCalls: number }).printCalls)).toBe(1);
  await print.getByRole('button', { name: 'Close' }).click();

  const proceed = a.getByRole('button', { name: 'Continue' });
  await expect(proceed).toBeDisabled();
  await a.getByRole('checkbox', { name: 'I have saved my recovery kit' }).check();
  await proceed.click();
  await expect(a).toHaveURL(/\/new$/);
});

test('Alice and Bob exchange files and pin each other', async () => {
  test.setTimeout(300_000);
  await signUpReady(b, bob);
  await a.goto('/new');
  await startUpload(a, [own]);
  await expect(snackbar(a, 'File uploaded successfully!')).toBeVisible();
  await startUpload(b, [fromBob]);
  await expect(snackbar(b, 'File uploaded successfully!')).toBeVisible();

  await addContact(a, bob);
  const bobCard = a.getByRole('article', { name: bob.name });
  await bobCard.getByRole('button', { name: 'Mark as verified' }).click();
  await a
    .getByRole('dialog', { name: `Verify ${bob.name}` })
    .getByRole('button', { name: 'They match: mark verified' })
    .click();
  await expect(bobCard.locator('[data-key-state]')).toHaveText('Verified in person');
  await addContact(b, alice);
  await share(a, own, bob);
  await share(b, fromBob, alice);
  await aliceDownloadsBoth();
});

test('Profile: a wrong current key changes nothing; the change makes the old key fail everywhere', async () => {
  test.setTimeout(300_000);
  await a.goto('/profile');
  const card = a.getByRole('region', { name: 'Encryption keys' });
  await expect(card.getByText('Recovery kit saved')).toBeVisible();
  await screenshots(a, 'profile-security', card);
  await expectNoA11yViolations(a, 'Profile with the Encryption keys card');

  const newKey = `${alice.masterKey}-2`;
  await card.getByRole('button', { name: 'Change master unlock key' }).click();
  await expect(card.getByText('Password is required')).toHaveCount(2);
  await expect(card.getByText('Please confirm your password')).toBeVisible();
  await card.getByLabel(/^Current master unlock key/).fill('Not-My-Key-1!');
  await card.getByLabel(/^New master unlock key/).fill(newKey);
  await card.getByLabel(/^Confirm new master unlock key/).fill(newKey);
  await card.getByRole('button', { name: 'Change master unlock key' }).click();
  await expect(
    card.getByText('The current master unlock key is not correct. Nothing was changed.'),
  ).toBeVisible({
    timeout: 60_000,
  });
  await screenshots(a, 'profile-change-key-wrong', card);

  await card.getByLabel(/^Current master unlock key/).fill(alice.masterKey);
  await card.getByRole('button', { name: 'Change master unlock key' }).click();
  await expect(
    card.getByText('Master unlock key changed. Use the new one from now on, on every device.'),
  ).toBeVisible({ timeout: 60_000 });
  currentKey = newKey;

  await signInAgain();
  await a.getByLabel(/^Master unlock key/).fill(alice.masterKey);
  await a.getByRole('button', { name: 'Unlock', exact: true }).click();
  await expect(
    a.getByText('Encryption Unlock failed. Please try again.', { exact: true }).first(),
  ).toBeVisible({ timeout: 60_000 });
  await unlockEncryption(a, currentKey);
  await aliceDownloadsBoth();

  // Bob still opens what Alice shared: her key pair did not change.
  await b.goto('/sharedwithme');
  const shared = fileCard(b, own.name);
  await expect(shared.getByText(`Signed by ${alice.email.toLowerCase()}`)).toBeVisible();
  const bobsCopy = await downloadAndHash(b, () =>
    shared.getByRole('button', { name: `Download ${own.name}` }).click(),
  );
  expect(bobsCopy.sha256).toBe(own.sha256);
});

test('a forgotten key: the kit’s words and a new key unlock, and nothing is lost', async () => {
  test.setTimeout(300_000);
  await signInAgain();
  await a.getByRole('button', { name: 'Forgot your master unlock key?' }).click();
  await expect(a.getByRole('button', { name: 'Use your recovery kit' })).toBeVisible();
  await expect(a.getByRole('button', { name: 'Delete keys and reset' })).toBeVisible();
  await screenshots(a, 'recovery-offer');
  await expectNoA11yViolations(a, 'forgotten key with the recovery offer');
  await a.getByRole('button', { name: 'Use your recovery kit' }).click();
  await expect(a.getByRole('heading', { level: 1, name: 'Recover Encryption' })).toBeVisible();
  await expectNoA11yViolations(a, 'recovery: the words');

  const field = a.getByLabel(/^Recovery kit words/);
  await field.fill(firstWords.slice(0, 23).join(' '));
  await a.getByRole('button', { name: 'Continue' }).click();
  await expect(a.getByText('A recovery kit has 24 words. You entered 23.')).toBeVisible();
  await screenshots(a, 'recovery-words-error');
  // As written on paper: numbered, one per line.
  await field.fill(firstWords.map((word, index) => `${String(index + 1)}. ${word}`).join('\n'));
  await a.getByRole('button', { name: 'Continue' }).click();
  await expect(a.getByText('Recovery kit accepted. Choose a new master unlock key.')).toBeVisible();

  const recoveredKey = `${alice.masterKey}-3`;
  await a.getByRole('button', { name: 'Set new key and unlock' }).click();
  await expect(a.getByText('Password is required')).toBeVisible();
  await a.getByLabel(/^New master unlock key/).fill('abcdefg1!');
  await expect(a.getByText('Password must contain at least one uppercase letter')).toBeVisible();
  await a.getByLabel(/^New master unlock key/).fill(recoveredKey);
  await a.getByLabel(/^Confirm new master unlock key/).fill(`${recoveredKey}x`);
  await expect(a.getByText('Passwords do not match')).toBeVisible();
  await screenshots(a, 'recovery-new-key');
  await expectNoA11yViolations(a, 'recovery: new master unlock key, with its error');
  await a.getByLabel(/^Confirm new master unlock key/).fill(recoveredKey);
  await expect(a.getByText('Passwords do not match')).toBeHidden();
  await expectNoA11yViolations(a, 'recovery: new master unlock key');
  await a.getByRole('button', { name: 'Set new key and unlock' }).click();
  await expect(a.getByText('Encryption recovered. Your new master unlock key is set.')).toBeVisible({
    timeout: 60_000,
  });
  await expect(a).toHaveURL(/\/new$/);
  currentKey = recoveredKey;

  await aliceDownloadsBoth();
  await a.goto('/contacts');
  await expect(a.getByRole('article', { name: bob.name }).locator('[data-key-state]')).toHaveText(
    'Verified in person',
  );

  await signInAgain();
  await unlockEncryption(a, currentKey);
});

test('a new kit from Profile revokes the old one: its words are refused, the new ones accepted', async () => {
  test.setTimeout(300_000);
  await a.goto('/profile');
  const card = a.getByRole('region', { name: 'Encryption keys' });
  await card.getByRole('button', { name: 'Create a new recovery kit' }).click();
  const confirm = a.getByRole('dialog', { name: 'Create a new recovery kit?' });
  await expect(confirm.getByText(/Your current recovery kit stops working/)).toBeVisible();
  await screenshots(a, 'kit-replace-confirm', confirm);
  await confirm.getByRole('button', { name: 'Replace recovery kit' }).click();

  const create = a.getByRole('dialog', { name: 'Create recovery kit' });
  await create.getByLabel(/^Master unlock key/).fill(currentKey);
  await screenshots(a, 'kit-create-dialog', create);
  await create.getByRole('button', { name: 'Create recovery kit' }).click();
  const sheet = a.getByRole('dialog', { name: 'Your recovery kit' });
  secondWords = await wordsOnScreen(a);
  expect(secondWords).not.toEqual(firstWords);
  await screenshots(a, 'kit-new-words', sheet);
  await sheet.getByRole('checkbox', { name: 'I have saved my recovery kit' }).check();
  await sheet.getByRole('button', { name: 'Done' }).click();
  await expect(sheet).toBeHidden();

  await signInAgain();
  await openRecovery();
  const field = a.getByLabel(/^Recovery kit words/);
  await field.fill(firstWords.join(' '));
  await a.getByRole('button', { name: 'Continue' }).click();
  await expect(a.getByText('This recovery kit has been replaced by a newer one')).toBeVisible();
  await screenshots(a, 'recovery-replaced-kit');
  await field.fill(secondWords.join(' '));
  await a.getByRole('button', { name: 'Continue' }).click();
  await expect(a.getByText('Recovery kit accepted. Choose a new master unlock key.')).toBeVisible();
});
