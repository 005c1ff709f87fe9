import { mkdtemp, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { readyPerson } from '../helpers/accounts.js';
import { newPerson, unlockEncryption, type TestPerson } from '../helpers/auth.js';
import { addContact } from '../helpers/contacts.js';
import {
  apiCall,
  downloadAndHash,
  fileCard,
  forceServiceWorkerSave,
  serverFileNames,
  snackbar,
  startUpload,
  writeTestFile,
  type TestFile,
} from '../helpers/files.js';

/**
 * Issue 18: an upload interrupted in the middle of a part (the tab crashed) is resumed from the upload
 * screen after a reload. Only the parts the server lacks are sent, and a recipient of a later share
 * downloads exactly the original bytes. A different file of the same size (same date too) is refused.
 */

const MIB = 1024 * 1024;
/** The format's chunk: part n is encrypted chunk n-1. */
const CHUNK = 99_614_720;
const PART = /\/api\/users\/uploads\/multipart\/[^/]+\/part\/(\d+)\?/;

let dir: string;
let big: TestFile;
let small: TestFile;
let impostor: TestFile;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coffer-e2e-resume-'));
  // Three parts: two whole chunks and 1 MiB.
  big = await writeTestFile(dir, 'expedition-footage.bin', 2 * CHUNK + MIB, 'RESUME-BIG');
  // Two parts, and a file of the same size and date with other bytes.
  small = await writeTestFile(dir, 'site-survey.bin', 101 * MIB, 'RESUME-SMALL');
  impostor = await writeTestFile(dir, 'survey-copy', 101 * MIB, 'RESUME-OTHER');
  const { mtime } = await stat(small.path);
  await utimes(impostor.path, mtime, mtime);
});
test.afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface HeldState {
  parts: number;
  heldParts: { partNumber: number; size: number; etag: string }[];
}

const pendingUploadId = async (page: Page, name: string): Promise<string | undefined> => {
  const { body } = await apiCall(page, 'GET', '/users/uploads');
  const uploads = (body as { uploads: { uploadId: string; fileName: string; status: string }[] }).uploads;
  // Issue 31: an upload with a sealed name is listed as 'encrypted'.
  return uploads.find((u) => (u.fileName === name || u.fileName === 'encrypted') && u.status === 'pending')
    ?.uploadId;
};

const heldState = async (page: Page, uploadId: string): Promise<HeldState> => {
  const { status, body } = await apiCall(page, 'GET', `/users/uploads/multipart/${uploadId}`);
  expect(status).toBe(200);
  return body as HeldState;
};

/**
 * Starts uploading `file` and crashes the tab while part 2 is on its way: the part's request is held
 * (none of it reaches the server) when the renderer dies, which cancels it. Answers the upload's id.
 * A crash rather than a close: closing ends the interception, and the browser would then send the
 * held part before the page is gone.
 */
async function interruptDuringPartTwo(page: Page, file: TestFile): Promise<string> {
  let partTwoStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => {
    partTwoStarted = resolve;
  });
  // Held, never answered: the tab dies while the part is in flight.
  await page.route(/\/part\/2\?/, () => {
    partTwoStarted();
  });
  await startUpload(page, [file]);
  await started;
  const uploadId = await pendingUploadId(page, file.name);
  expect(uploadId).toBeDefined();
  const cdp = await page.context().newCDPSession(page);
  const crashed = page.waitForEvent('crash');
  // Not awaited: its answer may never come, the renderer being gone.
  void cdp.send('Page.crash').catch(() => undefined);
  await crashed;
  await page.close({ runBeforeUnload: false });
  return uploadId ?? '';
}

/** A new tab of the same browser, on the upload screen, unlocked. */
async function reopenUploadScreen(context: BrowserContext, person: TestPerson): Promise<Page> {
  const page = await context.newPage();
  await page.goto('/new');
  await unlockEncryption(page, person.masterKey);
  await expect(page).toHaveURL(/\/new$/);
  return page;
}

function unfinishedEntry(page: Page, file: TestFile) {
  return page
    .getByRole('region', { name: 'Unfinished uploads' })
    .getByRole('listitem', { name: `Unfinished upload ${file.name}` });
}

/** Presses Resume and picks `file` in the file chooser it opens. */
async function resumeWith(page: Page, entry: ReturnType<typeof unfinishedEntry>, file: TestFile) {
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    entry.getByRole('button', { name: /^Resume/ }).click(),
  ]);
  await chooser.setFiles(file.path);
}

test('an upload whose tab crashed in the middle of part 2 resumes after a reload and arrives whole', async ({
  browser,
}) => {
  // A ceiling: 191 MiB goes up twice (in part) and down once, with two sign-ups, on a busy 2-core machine.
  test.setTimeout(900_000);
  const alice = newPerson('resumer');
  const bob = newPerson('receiver');
  const context = await browser.newContext();
  const first = await context.newPage();
  await readyPerson(first, alice);
  const uploadId = await interruptDuringPartTwo(first, big);

  const page = await reopenUploadScreen(context, alice);
  // The server holds part 1 only.
  const before = await heldState(page, uploadId);
  expect(before.parts).toBe(3);
  expect(before.heldParts.map((p) => p.partNumber)).toEqual([1]);

  const entry = unfinishedEntry(page, big);
  await expect(entry).toContainText('1 of 3 parts');
  const sentParts: number[] = [];
  page.on('request', (request) => {
    const match = PART.exec(request.url());
    if (request.method() === 'PUT' && match?.[1] !== undefined) sentParts.push(Number(match[1]));
  });
  await resumeWith(page, entry, big);
  // Progress as for any upload, in the upload list.
  await expect(page.getByRole('listitem', { name: big.name })).toBeVisible();
  await expect(snackbar(page, 'File uploaded successfully!')).toBeVisible({ timeout: 240_000 });
  expect(sentParts).toEqual([2, 3]);
  // The one file, its name sealed (issue 31: the server lists it as 'encrypted').
  expect(await serverFileNames(page)).toEqual(['encrypted']);
  await expect(page.getByRole('region', { name: 'Unfinished uploads' })).toBeHidden();
  // The browser's record went with the completion.
  expect(
    await page.evaluate(
      () =>
        new Promise<number>((resolve, reject) => {
          const open = indexedDB.open('coffer-uploads');
          open.onerror = () => {
            reject(new Error('no database'));
          };
          open.onsuccess = () => {
            const count = open.result
              .transaction('multipart-uploads')
              .objectStore('multipart-uploads')
              .count();
            count.onsuccess = () => {
              resolve(count.result);
            };
          };
        }),
    ),
  ).toBe(0);

  // A later share: the recipient downloads exactly the original bytes.
  const bobContext = await browser.newContext();
  const b = await bobContext.newPage();
  await forceServiceWorkerSave(b);
  await readyPerson(b, bob);
  await addContact(page, bob);
  await page.getByRole('article', { name: bob.name }).getByRole('button', { name: 'Share files' }).click();
  const share = page.getByRole('dialog', { name: `Share files with ${bob.name}` });
  await share.getByRole('checkbox', { name: big.name }).check();
  await share.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(snackbar(page, `${big.name} shared successfully with ${bob.name}`)).toBeVisible();

  await b.getByRole('link', { name: 'Shared With Me' }).first().click();
  const card = fileCard(b, big.name);
  await card.getByRole('link', { name: big.name }).click();
  const received = b.getByRole('article', { name: big.name });
  const { sha256 } = await downloadAndHash(
    b,
    () => received.getByRole('button', { name: 'Download' }).click(),
    240_000,
  );
  expect(sha256).toBe(big.sha256);
  await bobContext.close();
  await context.close();
});

test('picking another file of the same size and date is refused, and nothing of it is sent', async ({
  browser,
}) => {
  test.setTimeout(600_000);
  const carol = newPerson('picker');
  const context = await browser.newContext();
  const first = await context.newPage();
  await readyPerson(first, carol);
  const uploadId = await interruptDuringPartTwo(first, small);

  const page = await reopenUploadScreen(context, carol);
  const entry = unfinishedEntry(page, small);
  await expect(entry).toContainText('1 of 2 parts');
  const sentParts: number[] = [];
  page.on('request', (request) => {
    const match = PART.exec(request.url());
    if (request.method() === 'PUT' && match?.[1] !== undefined) sentParts.push(Number(match[1]));
  });

  await resumeWith(page, entry, impostor);
  await expect(
    snackbar(
      page,
      `That is not the file this upload started from. Pick ${small.name} (101.00 MB), unchanged since the upload started.`,
    ),
  ).toBeVisible({ timeout: 120_000 });
  expect(sentParts).toEqual([]);
  expect((await heldState(page, uploadId)).heldParts.map((p) => p.partNumber)).toEqual([1]);
  await expect(entry).toBeVisible();

  // The right file still resumes.
  await resumeWith(page, entry, small);
  await expect(snackbar(page, 'File uploaded successfully!')).toBeVisible({ timeout: 120_000 });
  expect(sentParts).toEqual([2]);
  expect(await serverFileNames(page)).toEqual(['encrypted']);
  await context.close();
});
