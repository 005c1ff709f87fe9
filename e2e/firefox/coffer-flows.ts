import type { Page } from 'puppeteer-core';
import type { TestPerson } from '../helpers/auth.js';
import type { TestFile } from '../helpers/files.js';
import {
  byRole,
  clickRole,
  fieldByLabel,
  fillLabel,
  navigate,
  waitForPath,
  waitForText,
} from './page-actions.js';

/**
 * The app's screens as the Firefox journey uses them: the same steps as the Chromium helpers
 * (`helpers/auth.ts`, `helpers/files.ts`), written for puppeteer's page.
 */

/** From /landing: Log in → the provider's sign-in form → back on /unlock, signed in. */
export async function signIn(page: Page, baseUrl: string, person: TestPerson): Promise<void> {
  await page.goto(`${baseUrl}/landing`);
  await clickRole(page, 'link', 'Log in');
  await waitForPath(page, /^\/idp\//);
  // The provider's own page: plain form fields with names.
  await page.locator('input[name="email"]').fill(person.email);
  await page.locator('input[name="password"]').fill(person.password);
  // A handle's click, not a locator's: the locator's click did not return once the form's POST
  // navigated away (seen with firefox-esr 153; the page then sat on the filled form).
  const submit = await page.waitForSelector('form button[type="submit"]');
  await submit?.click();
  await waitForPath(page, /^\/unlock$/);
}

/** On /unlock for a new person: sets up encryption, skips the recovery kit, waits for /new. */
export async function setUpEncryption(page: Page, masterKey: string): Promise<void> {
  await byRole(page, 'heading', 'Set Up Encryption').wait();
  await fillLabel(page, 'Master unlock key', masterKey);
  await fillLabel(page, 'Confirm master unlock key', masterKey);
  await clickRole(page, 'button', 'Set up encryption');
  // Key generation and two 600000-round key derivations: slow on a busy machine. (Its snackbar is
  // too short-lived to wait for; the next step's heading is the state.)
  await byRole(page, 'heading', 'Save your recovery kit').setTimeout(120_000).wait();
  await clickRole(page, 'button', 'Skip for now');
  await waitForPath(page, /\/new$/);
}

/** On Contacts: adds `contact` and waits for the confirmation. */
export async function addContact(page: Page, contact: TestPerson): Promise<void> {
  await navigate(page, 'Contacts', /\/contacts$/);
  await clickRole(page, 'button', 'Add contact');
  const dialog = '[role="dialog"]';
  await fillLabel(page, 'Name', contact.name, dialog);
  await fillLabel(page, 'Email', contact.email, dialog);
  // The dialog's submit (its title and the page's "+" share the name "Add contact").
  await (await fieldByLabel(page, 'Email', dialog)).press('Enter');
  await waitForText(page, 'Contact added successfully!');
  await byRole(page, 'article', contact.name).wait();
}

/** On /new: chooses the files, presses Upload Files and waits for the batch's summary. */
export async function uploadFiles(page: Page, files: readonly TestFile[]): Promise<void> {
  await navigate(page, 'New Upload', /\/new$/);
  await waitForText(page, 'Drop files here or click to upload');
  const input = await page.waitForSelector('input[type="file"]');
  if (input === null) throw new Error('no file input on /new');
  await input.uploadFile(...files.map((file) => file.path));
  for (const file of files) await byRole(page, 'listitem', file.name).wait();
  await clickRole(page, 'button', 'Upload Files');
  const summary =
    files.length === 1 ? 'File uploaded successfully!' : `${files.length} files uploaded successfully!`;
  // A ceiling for a 100 MB encryption and upload on a busy 2-core machine.
  await waitForText(page, summary, 240_000);
}

/** From the contact's card on Contacts: shares `files` with `contact` and waits for each confirmation. */
export async function shareWithContact(
  page: Page,
  contact: TestPerson,
  files: readonly TestFile[],
): Promise<void> {
  await navigate(page, 'Contacts', /\/contacts$/);
  await clickRole(page, 'button', 'Share files');
  await byRole(page, 'dialog', `Share files with ${contact.name}`).wait();
  for (const file of files) await clickRole(page, 'checkbox', file.name);
  await clickRole(page, 'button', 'Share');
  for (const file of files) await waitForText(page, `${file.name} shared successfully with ${contact.name}`);
}

/** On Shared With Me: presses the file's Download button. */
export async function downloadShared(page: Page, file: TestFile): Promise<void> {
  await navigate(page, 'Shared With Me', /\/sharedwithme$/);
  await byRole(page, 'article', file.name).wait();
  await clickRole(page, 'button', `Download ${file.name}`);
}

/** On My Files: presses the file's Download button. */
export async function downloadOwn(page: Page, file: TestFile): Promise<void> {
  await navigate(page, 'My Files', /\/myfiles$/);
  await byRole(page, 'article', file.name).wait();
  await clickRole(page, 'button', `Download ${file.name}`);
}
