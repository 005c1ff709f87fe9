import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { readyPerson } from '../helpers/accounts.js';
import { newPerson, type TestPerson } from '../helpers/auth.js';
import { addContact } from '../helpers/contacts.js';
import {
  apiCall,
  bytesUnder,
  downloadAndHash,
  e2eDataDir,
  fileCard,
  filesContaining,
  forceServiceWorkerSave,
  myOpenMultipartUploads,
  serverFileNames,
  serverUploadStatuses,
  snackbar,
  startUpload,
  writeTestFile,
  writeTextFile,
  type TestFile,
} from '../helpers/files.js';

/**
 * Spec sections 2, 4, 5 and 8 end to end, against the real server: A uploads a small file and one
 * above the 100 MB direct threshold, finds, downloads and shares them; B receives and downloads;
 * A revokes. Uploads are cancelled by hand and by leaving the page. The blob store never holds the
 * plaintext. One real 100 MB+ upload and download.
 */

const MIB = 1024 * 1024;
const MARKER = `COFFER-PLAINTEXT-MARKER-${Date.now().toString(36)}`;

test.describe.configure({ mode: 'serial' });

let dir: string;
let small: TestFile;
let big: TestFile;
let alice: TestPerson;
let bob: TestPerson;
let aliceContext: BrowserContext;
let bobContext: BrowserContext;
let a: Page;
let b: Page;

test.beforeAll(async ({ browser }) => {
  dir = await mkdtemp(join(tmpdir(), 'coffer-e2e-files-'));
  small = await writeTextFile(dir, 'meeting-notes.txt', MARKER);
  // 101 MiB: two encrypted chunks, multipart upload through the queue.
  big = await writeTestFile(dir, 'camera-backup.bin', 101 * MIB, MARKER);
  alice = newPerson('alice');
  bob = newPerson('bob');
  aliceContext = await browser.newContext();
  bobContext = await browser.newContext();
  a = await aliceContext.newPage();
  b = await bobContext.newPage();
  await forceServiceWorkerSave(a);
  await forceServiceWorkerSave(b);
});

test.afterAll(async () => {
  await aliceContext.close();
  await bobContext.close();
  await rm(dir, { recursive: true, force: true });
});

test('A uploads a small file and a file above 100 MB with progress', async () => {
  await readyPerson(a, alice);
  await expect(a).toHaveURL(/\/new$/);
  await startUpload(a, [small, big]);

  // While it runs the drop zone is disabled and says so; the big file shows its progress.
  await expect(a.getByText('Upload in progress. Please wait...')).toBeVisible();
  const bigRow = a.getByRole('listitem', { name: big.name });
  await expect(bigRow).toHaveAttribute('data-upload-phase', /^(queued|processing|uploading)$/);

  // Successful items leave the list; the batch ends with one summary snackbar, not one per file.
  await expect(a.getByRole('listitem', { name: small.name })).toBeHidden({ timeout: 60_000 });
  await expect(bigRow).toBeHidden({ timeout: 180_000 });
  await expect(snackbar(a, '2 files uploaded successfully!')).toBeVisible();
  await expect(snackbar(a, 'File uploaded successfully!')).toBeHidden();
  await expect(a.getByText('Drop files here or click to upload')).toBeVisible();
  // Issue 31: the server holds both, under the name 'encrypted' (their names are sealed).
  expect(await serverFileNames(a)).toEqual(['encrypted', 'encrypted']);
});

test('the blob store holds ciphertext only', async () => {
  const blobs = join(e2eDataDir(), 'blobs');
  // The right folder: it holds at least the big file's ciphertext.
  expect(await bytesUnder(blobs)).toBeGreaterThan(big.size);
  expect(await filesContaining(blobs, MARKER)).toEqual([]);
});

test('A lists, searches, filters and sorts the files', async () => {
  await a.getByRole('link', { name: 'My Files' }).first().click();
  await expect(a).toHaveURL(/\/myfiles$/);
  await expect(fileCard(a, small.name)).toBeVisible();
  await expect(fileCard(a, big.name).getByText('101.00 MB')).toBeVisible();
  await expect(fileCard(a, big.name).getByTestId('file-datetime')).toHaveText(
    /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/,
  );

  const cardTitles = () => a.getByRole('article').getByTestId('file-title').allInnerTexts();

  const search = a.getByRole('textbox', { name: 'Search files' });
  await search.fill('MEETING');
  await expect(a.getByRole('article')).toHaveCount(1);
  await expect(fileCard(a, small.name)).toBeVisible();
  await search.fill('nothing-like-this');
  await expect(a.getByText('No files found')).toBeVisible();
  await expect(a.getByText('Try adjusting your search or filters.')).toBeVisible();
  await a.getByRole('button', { name: 'Clear search' }).click();

  const typeFilter = a.getByRole('combobox', { name: 'File type' });
  await typeFilter.click();
  await a.getByRole('option', { name: 'Text' }).click();
  await expect(a.getByRole('article')).toHaveCount(1);
  await expect(fileCard(a, small.name)).toBeVisible();
  await typeFilter.click();
  await a.getByRole('option', { name: 'Other' }).click();
  await expect(a.getByRole('article')).toHaveCount(1);
  await expect(fileCard(a, big.name)).toBeVisible();
  await typeFilter.click();
  await a.getByRole('option', { name: 'All types' }).click();
  await expect(a.getByRole('article')).toHaveCount(2);

  // Newest first by default; oldest first reverses it.
  const newest = await cardTitles();
  const sort = a.getByRole('combobox', { name: 'Sort order' });
  await expect(sort).toHaveValue('Newest first');
  await sort.click();
  await a.getByRole('option', { name: 'Oldest first' }).click();
  await expect.poll(cardTitles).toEqual([...newest].reverse());
  expect(newest.sort()).toEqual([big.name, small.name].sort());
});

test('A downloads both files and gets identical bytes', async () => {
  // A's browser holds the download worker under the URL every earlier version registered (without
  // the protocol version), as after a deploy: the app must replace it and download with the new one.
  // (Playwright cannot serve the earlier script itself: a worker whose script a route fulfilled is
  // bypassed by the iframe's navigation. The unit tests of sw-registration.ts cover the old worker
  // still active beside the new one.)
  const earlier = await a.evaluate(async () => {
    const registration = await navigator.serviceWorker.register('/download-sw.js', {
      scope: '/__coffer_download__/',
    });
    const worker = registration.installing ?? registration.waiting ?? registration.active;
    if (worker === null) throw new Error('no worker');
    while (worker.state !== 'activated') await new Promise((resolve) => setTimeout(resolve, 50));
    return worker.scriptURL;
  });
  expect(new URL(earlier).search).toBe('');

  const smallDownload = await downloadAndHash(a, () =>
    a.getByRole('button', { name: `Download ${small.name}` }).click(),
  );
  expect(smallDownload.download.suggestedFilename()).toBe(small.name);
  expect(smallDownload.sha256).toBe(small.sha256);
  await expect(snackbar(a, 'File downloaded successfully!')).toBeVisible();

  // The download service worker fetches the content itself: its requests are the context's, not the
  // page's. The first answer ends early, in the middle of the second encrypted chunk (asked for the
  // first 97 MiB only, so the bytes still come from the server); the worker asks again from that
  // chunk's first byte: 95 MiB of plaintext + 28 bytes of IV and tag before it.
  const content = '**/api/users/files/*/download';
  const ranges: (string | null)[] = [];
  await aliceContext.route(content, async (route) => {
    const headers = await route.request().allHeaders();
    ranges.push(headers.range ?? null);
    if (ranges.length === 1)
      await route.continue({ headers: { ...headers, range: `bytes=0-${97 * MIB - 1}` } });
    else await route.continue();
  });
  const bigCard = fileCard(a, big.name);
  const bigDownload = await downloadAndHash(a, async () => {
    await bigCard.getByRole('button', { name: `Download ${big.name}` }).click();
    await expect(bigCard.getByRole('progressbar', { name: `Download of ${big.name}` })).toBeVisible();
  });
  expect(bigDownload.sha256).toBe(big.sha256);
  await aliceContext.unroute(content);
  expect(ranges).toEqual([null, `bytes=${95 * MIB + 28}-`]);
  await expect(bigCard.getByRole('button', { name: `Download ${big.name}` })).toBeVisible({
    timeout: 60_000,
  });
  // The download worker answers only its own URLs: it must never control the app's pages, or every
  // later upload part would pass through it (and stay in the browser's memory).
  expect(await a.evaluate(() => navigator.serviceWorker.controller === null)).toBe(true);
  // The earlier registration now runs this version's worker.
  expect(
    await a.evaluate(
      async () => (await navigator.serviceWorker.getRegistration('/__coffer_download__/'))?.active?.scriptURL,
    ),
  ).toMatch(/\/download-sw\.js\?protocol=\d+$/);
  await a.reload();
  expect(await a.evaluate(() => navigator.serviceWorker.controller === null)).toBe(true);
});

test('a file whose ciphertext was changed on the way fails in the browser too: no file is saved', async () => {
  // One byte of the ciphertext (after the 12-byte IV) flipped in the answer the service worker gets.
  const content = '**/api/users/files/*/download';
  await aliceContext.route(content, async (route) => {
    const response = await route.fetch();
    const body = await response.body();
    body[20] = (body[20] ?? 0) ^ 0x01;
    await route.fulfill({ response, body });
  });
  try {
    const [download] = await Promise.all([
      a.waitForEvent('download'),
      a.getByRole('button', { name: `Download ${small.name}` }).click(),
    ]);
    await expect(
      snackbar(a, 'Download failed: The file is corrupted or was tampered with. Nothing was saved.'),
    ).toBeVisible();
    // The browser's download failed (its partial file deleted), not a complete-looking file.
    expect(await download.failure()).not.toBeNull();
  } finally {
    await aliceContext.unroute(content);
  }
});

test('A adds B as a contact and shares both files with B', async () => {
  await readyPerson(b, bob);

  await addContact(a, bob);
  await expect(
    a.getByRole('article', { name: bob.name }).getByText('Not verified in person', { exact: true }),
  ).toBeVisible();

  // From the contact's card: the contact is the recipient, the files are picked.
  await a.getByRole('article', { name: bob.name }).getByRole('button', { name: 'Share files' }).click();
  const fromContact = a.getByRole('dialog', { name: `Share files with ${bob.name}` });
  await expect(fromContact.getByRole('button', { name: 'Share', exact: true })).toBeDisabled();
  await fromContact.getByRole('checkbox', { name: big.name }).check();
  await fromContact.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(snackbar(a, `${big.name} shared successfully with ${bob.name}`)).toBeVisible();
  await expect(fromContact).toBeHidden();

  // From a file's card: the file is chosen, the contacts are picked.
  await a.getByRole('link', { name: 'My Files' }).first().click();
  await expect(
    fileCard(a, big.name).getByRole('button', { name: `Revoke access for ${bob.name}` }),
  ).toBeVisible();
  await a.getByRole('button', { name: `Share ${small.name}` }).click();
  const share = a.getByRole('dialog', { name: 'Share files' });
  await expect(share.getByRole('button', { name: 'Share', exact: true })).toBeDisabled();
  await expect(share.getByRole('checkbox', { name: small.name })).toBeChecked();
  await share.getByRole('checkbox', { name: bob.name }).check();
  await share.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(snackbar(a, `${small.name} shared successfully with ${bob.name}`)).toBeVisible();
  await expect(share).toBeHidden();
  await expect(
    fileCard(a, small.name).getByRole('button', { name: `Revoke access for ${bob.name}` }),
  ).toBeVisible();

  // B already has it: the modal does not offer B again for it.
  await a.getByRole('button', { name: `Share ${small.name}` }).click();
  await expect(share.getByRole('checkbox', { name: bob.name })).toBeDisabled();
  await share.getByRole('button', { name: 'Cancel' }).click();
});

test('B sees the files in Shared With Me and on /share/{id}, and downloads identical bytes', async () => {
  await b.getByRole('link', { name: 'Shared With Me' }).first().click();
  const card = fileCard(b, small.name);
  await expect(card.getByText(`From ${alice.email}`)).toBeVisible();
  await expect(fileCard(b, big.name)).toBeVisible();

  await card.getByRole('link', { name: small.name }).click();
  await expect(b).toHaveURL(/\/share\/[^/]+$/);
  await expect(b.getByRole('heading', { level: 1, name: 'Files Received' })).toBeVisible();
  const received = b.getByRole('article', { name: small.name });
  await expect(received.getByText(alice.email).first()).toBeVisible();
  await expect(received.getByText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/)).toBeVisible();
  const { sha256 } = await downloadAndHash(b, () =>
    received.getByRole('button', { name: 'Download' }).click(),
  );
  expect(sha256).toBe(small.sha256);
  await expect(snackbar(b, 'File downloaded successfully!')).toBeVisible();
});

test('A revokes and B loses access', async () => {
  // The server knows the file as 'encrypted' (issue 31): its id is read from A's card.
  const smallId = await fileCard(a, small.name).getAttribute('data-file-id');
  expect(smallId).not.toBeNull();

  // B has the list open (the file checked and offered) while A revokes.
  await b.goto('/sharedwithme');
  await expect(fileCard(b, small.name).getByText(`Signed by ${alice.email.toLowerCase()}`)).toBeVisible();

  // Revoking asks first; the dialog returns focus to the chip's "×" when cancelled.
  const revoke = fileCard(a, small.name).getByRole('button', { name: `Revoke access for ${bob.name}` });
  await revoke.click();
  const confirm = a.getByRole('dialog', { name: 'Revoke access?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(revoke).toBeFocused();
  await revoke.click();
  await confirm.getByRole('button', { name: 'Revoke', exact: true }).click();
  await expect(snackbar(a, `Access revoked for ${bob.name}`)).toBeVisible();
  await expect(fileCard(a, small.name).getByText('Only you')).toBeVisible();

  // B's stale card: the download fails, the list refreshes, and B is told why.
  await fileCard(b, small.name)
    .getByRole('button', { name: `Download ${small.name}` })
    .click();
  await expect(snackbar(b, 'This file is no longer shared with you.')).toBeVisible();
  await expect(fileCard(b, small.name)).toBeHidden();
  await expect(fileCard(b, big.name)).toBeVisible();
  await b.goto(`/share/${smallId ?? ''}`);
  await expect(b.getByText(`File with ID ${smallId ?? ''} not found`)).toBeVisible();
  expect((await apiCall(b, 'GET', `/users/files/shared/${smallId ?? ''}`)).status).toBe(404);
  expect((await apiCall(b, 'GET', `/users/files/shared/${smallId ?? ''}/download`)).status).toBe(404);
});

test('a cancelled upload and an upload left by navigating away leave nothing on the server', async () => {
  const before = (await serverFileNames(a)).sort();
  const again = await writeTestFile(dir, 'second-backup.bin', 101 * MIB, MARKER);

  await a.getByRole('link', { name: 'New Upload' }).first().click();
  await startUpload(a, [again]);
  const row = a.getByRole('listitem', { name: again.name });
  await expect(row.getByText('Processing').or(row.getByText(/%$/))).toBeVisible();

  // Leaving the page asks first; staying keeps the upload.
  await a.getByRole('link', { name: 'My Files' }).first().click();
  const confirm = a.getByRole('dialog', { name: 'Leave this page?' });
  await expect(
    confirm.getByText(
      'You have file operations in progress. Are you sure you want to leave? This may cancel your upload or download.',
    ),
  ).toBeVisible();
  await confirm.getByRole('button', { name: 'Stay' }).click();
  await expect(a).toHaveURL(/\/new$/);

  // Cancel by hand.
  await row.getByRole('button', { name: `Cancel upload of ${again.name}` }).click();
  await expect(snackbar(a, 'Upload cancelled')).toBeVisible();
  await expect(row).toBeHidden();
  expect((await serverFileNames(a)).sort()).toEqual(before);
  await expect.poll(() => serverUploadStatuses(a)).not.toContain('pending');

  // Start again and leave: confirming aborts it.
  await startUpload(a, [again]);
  await expect(row.getByText('Processing').or(row.getByText(/%$/))).toBeVisible();
  await a.getByRole('link', { name: 'My Files' }).first().click();
  await confirm.getByRole('button', { name: 'Leave' }).click();
  await expect(a).toHaveURL(/\/myfiles$/);
  await expect(a.getByRole('article')).toHaveCount(2);
  await expect.poll(() => serverUploadStatuses(a)).not.toContain('pending');
  expect((await serverFileNames(a)).sort()).toEqual(before);

  // Nothing of the aborted uploads stays in the blob store's multipart area, and no plaintext anywhere.
  const blobs = join(e2eDataDir(), 'blobs');
  expect(await serverUploadStatuses(a)).toContain('aborted');
  await expect.poll(() => myOpenMultipartUploads(a)).toEqual([]);
  expect(await filesContaining(blobs, MARKER)).toEqual([]);
});
