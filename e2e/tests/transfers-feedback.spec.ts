import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type BrowserContext, type Page, type Route } from '@playwright/test';
import { readyPerson } from '../helpers/accounts.js';
import { logoutFromSidebar, newPerson, type TestPerson } from '../helpers/auth.js';
import { addContact } from '../helpers/contacts.js';
import { snackbar, writeTestFile, writeTextFile, type TestFile } from '../helpers/files.js';
import { allMailsTo } from '../helpers/mail.js';

/**
 * Issue 15, points 10–13, as a person sees them: one snackbar for a batch of uploads; files with the
 * same name told apart by size and upload time in My Files and the share picker; one mail for one
 * share action over several files; the queue counting "Queued (n of total)" right with a percentage
 * once bytes move; a logout that cancels transfers says how many.
 */

const MIB = 1024 * 1024;
const SIZE_TEXT = /^\d+(\.\d+)? (B|KB|MB|GB)$/;
const DATE_TIME = /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/;

test.describe.configure({ mode: 'serial' });

let dir: string;
let reportA: TestFile;
let reportB: TestFile;
let summary: TestFile;
let alice: TestPerson;
let bob: TestPerson;
let aliceContext: BrowserContext;
let bobContext: BrowserContext;
let a: Page;
let b: Page;

test.beforeAll(async ({ browser }) => {
  dir = await mkdtemp(join(tmpdir(), 'coffer-e2e-feedback-'));
  // Two files with the same name and different sizes, from two folders.
  await mkdir(join(dir, 'one'));
  await mkdir(join(dir, 'two'));
  reportA = await writeTextFile(join(dir, 'one'), 'report.txt', 'FIRST');
  reportB = await writeTextFile(join(dir, 'two'), 'report.txt', 'SECOND'.repeat(400));
  summary = await writeTextFile(dir, 'summary.txt', 'SUMMARY');
  alice = newPerson('batch');
  bob = newPerson('batchpeer');
  aliceContext = await browser.newContext();
  bobContext = await browser.newContext();
  a = await aliceContext.newPage();
  b = await bobContext.newPage();
});

test.afterAll(async () => {
  await aliceContext.close();
  await bobContext.close();
  await rm(dir, { recursive: true, force: true });
});

/** Holds every POST that creates a multipart upload until `release()`. */
async function holdMultipartCreates(page: Page): Promise<{ release: () => void; stop: () => Promise<void> }> {
  let release = (): void => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const pattern = '**/api/users/uploads/multipart';
  await page.route(pattern, async (route) => {
    if (route.request().method() === 'POST') await gate;
    // The page may have aborted the request meanwhile (a cancel, a logout).
    await route.continue().catch(() => undefined);
  });
  return { release, stop: () => page.unroute(pattern) };
}

test('a batch of uploads ends with one snackbar; same-named files show size and upload time', async () => {
  await readyPerson(a, alice);
  const input = a.locator('input[type="file"]');
  await input.setInputFiles([reportA.path, reportB.path, summary.path]);
  const rows = a.getByRole('list', { name: 'Files to upload' }).getByRole('listitem');
  await expect(rows).toHaveCount(3);
  await a.getByRole('button', { name: 'Upload Files' }).click();

  await expect(snackbar(a, '3 files uploaded successfully!')).toBeVisible();
  await expect(rows).toHaveCount(0);
  // One summary, not one snackbar per file.
  await expect(
    a.locator('.mantine-Notification-root').filter({ hasText: 'uploaded successfully' }),
  ).toHaveCount(1);

  // My Files: the two report.txt cards differ by size; each shows its upload time.
  await a.getByRole('link', { name: 'My Files' }).first().click();
  const reports = a.getByRole('article', { name: 'report.txt' });
  await expect(reports).toHaveCount(2);
  const sizes = await reports.getByTestId('file-size').allTextContents();
  expect(sizes).toHaveLength(2);
  for (const size of sizes) expect(size.trim()).toMatch(SIZE_TEXT);
  expect(new Set(sizes).size).toBe(2);
  for (const time of await reports.getByTestId('file-datetime').allTextContents()) {
    expect(time.trim()).toMatch(DATE_TIME);
  }
});

test('sharing several files with one person sends one mail; the picker tells same-named files apart', async () => {
  await readyPerson(b, bob);
  await addContact(a, bob);

  await a.getByRole('article', { name: bob.name }).getByRole('button', { name: 'Share files' }).click();
  const dialog = a.getByRole('dialog', { name: `Share files with ${bob.name}` });
  const reports = dialog.getByRole('checkbox', { name: 'report.txt' });
  await expect(reports).toHaveCount(2);
  const notes: string[] = [];
  for (const checkbox of await reports.all()) {
    const note = await checkbox.evaluate((element) =>
      (element.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' ')
        .trim(),
    );
    expect(note).toMatch(/^\d+(\.\d+)? (B|KB|MB|GB) · \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
    notes.push(note);
    await checkbox.check();
  }
  expect(new Set(notes).size).toBe(2);
  await dialog.getByRole('checkbox', { name: summary.name }).check();

  const before = allMailsTo(bob.email).length;
  await dialog.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(snackbar(a, `summary.txt shared successfully with ${bob.name}`)).toBeVisible();
  await expect
    .poll(() => allMailsTo(bob.email).slice(before).length, { message: 'the share mail to B' })
    .toBeGreaterThan(0);
  const mails = allMailsTo(bob.email).slice(before);
  expect(mails.map((mail) => mail.subject)).toEqual([
    expect.stringMatching(/shared 3 files with you on Coffer$/),
  ]);
  // The mail leads to Shared With Me (several files), and names none of them.
  expect(mails[0]?.body).toContain('/sharedwithme');
  expect(mails[0]?.body).not.toContain('report.txt');
});

test('the queue counts Queued (n of total) while several wait, then shows a percentage', async () => {
  const big = await Promise.all(
    ['queue-1.bin', 'queue-2.bin', 'queue-3.bin'].map((name) => writeTestFile(dir, name, 101 * MIB, 'QUEUE')),
  );
  const hold = await holdMultipartCreates(a);
  // Parts wait until the test ends: the first upload must still be running when it is cancelled, on a
  // busy machine or an idle one.
  const heldParts: Route[] = [];
  const partPattern = /\/api\/users\/uploads\/multipart\/[^/]+\/part\/\d+/;
  await a.route(partPattern, (route) => {
    heldParts.push(route);
  });
  try {
    await a.getByRole('link', { name: 'New Upload' }).first().click();
    await a.locator('input[type="file"]').setInputFiles(big.map((file) => file.path));
    await a.getByRole('button', { name: 'Upload Files' }).click();
    const row = (file: TestFile) => a.getByRole('listitem', { name: file.name });
    const [first, second, third] = big as [TestFile, TestFile, TestFile];
    // The first one runs (held before its first part); the others wait their turn.
    await expect(row(first).getByText('Processing')).toBeVisible();
    await expect(row(second).getByTestId('upload-status')).toContainText('Queued (2 of 3)');
    await expect(row(third).getByTestId('upload-status')).toContainText('Queued (3 of 3)');

    hold.release();
    // As soon as its first chunk is read for encryption: a percentage beside its bar.
    await expect(row(first).getByText(/^\d+(\.5)?%$/)).toBeVisible();
    await expect(row(third).getByTestId('upload-status')).toContainText('Queued (3 of 3)');

    for (const file of [third, second, first]) {
      await row(file)
        .getByRole('button', { name: `Cancel upload of ${file.name}` })
        .click();
      await expect(row(file)).toBeHidden();
    }
  } finally {
    hold.release();
    await hold.stop();
    await a.unroute(partPattern);
    for (const route of heldParts) await route.abort().catch(() => undefined);
  }
});

test('a logout that cancels transfers says how many on the landing page', async () => {
  const big = await writeTestFile(dir, 'left-behind.bin', 101 * MIB, 'LOGOUT');
  const hold = await holdMultipartCreates(a);
  try {
    await a.locator('input[type="file"]').setInputFiles([big.path]);
    await a.getByRole('button', { name: 'Upload Files' }).click();
    await expect(a.getByRole('listitem', { name: big.name }).getByText('Processing')).toBeVisible();

    await logoutFromSidebar(a);
    const said = a.getByRole('status').filter({ hasText: 'Logging out cancelled transfers in progress' });
    await expect(said).toBeVisible();
    await expect(said).toContainText('Upload cancelled. Start them again after you log in.');
  } finally {
    hold.release();
    await hold.stop();
  }
});
