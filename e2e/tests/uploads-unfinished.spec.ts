import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { readyPerson } from '../helpers/accounts.js';
import { newPerson, unlockEncryption } from '../helpers/auth.js';
import {
  apiCall,
  serverFileNames,
  snackbar,
  startUpload,
  writeTestFile,
  type TestFile,
} from '../helpers/files.js';

/**
 * An upload interrupted by a closed tab stays pending on the server and holds the plan's only
 * concurrent-upload place (Free: 1). The upload screen lists it with its age; Cancel aborts it on the
 * server, and a new large upload then starts at once instead of being refused.
 */

const MIB = 1024 * 1024;
let dir: string;
let big: TestFile;

test.beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coffer-e2e-unfinished-'));
  // Above the direct-upload threshold: a multipart upload of two parts.
  big = await writeTestFile(dir, 'interrupted-video.bin', 101 * MIB, 'UNFINISHED');
});
test.afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const pendingUploads = async (page: Page) => {
  const { body } = await apiCall(page, 'GET', '/users/uploads');
  return (
    body as { uploads: { uploadId: string; fileName: string; size: number; status: string }[] }
  ).uploads.filter((u) => u.status === 'pending');
};

test('an interrupted upload is listed and cancelled, and a new large upload starts at once', async ({
  browser,
}) => {
  const person = newPerson('unfinished');
  const context = await browser.newContext();
  const first = await context.newPage();
  await readyPerson(first, person);
  await startUpload(first, [big]);
  // The server has the upload (pending) before the tab goes away mid-transfer.
  await expect
    .poll(async () => (await pendingUploads(first)).map((u) => u.size), { timeout: 60_000 })
    .toEqual([big.size]);
  await first.close({ runBeforeUnload: false });

  const page = await context.newPage();
  await page.goto('/new');
  await unlockEncryption(page, person.masterKey);
  await expect(page).toHaveURL(/\/new$/);
  const section = page.getByRole('region', { name: 'Unfinished uploads' });
  const entry = section.getByRole('listitem', { name: `Unfinished upload ${big.name}` });
  await expect(entry).toBeVisible();
  await expect(entry).toContainText(/started (less than a minute|\d+ minutes?) ago/);

  await entry.getByRole('button', { name: 'Cancel' }).click();
  await expect(snackbar(page, 'Upload cancelled')).toBeVisible();
  await expect(section).toBeHidden();
  expect(await pendingUploads(page)).toEqual([]);

  await startUpload(page, [big]);
  await expect(snackbar(page, 'File uploaded successfully!')).toBeVisible({ timeout: 120_000 });
  // The one file, its name sealed (issue 31: the server lists it as 'encrypted').
  expect(await serverFileNames(page)).toEqual(['encrypted']);
  await context.close();
});
