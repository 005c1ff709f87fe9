import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { readyPerson } from '../helpers/accounts.js';
import { newPerson } from '../helpers/auth.js';
import { forceServiceWorkerSave, sha256OfFile, snackbar } from '../helpers/files.js';

/**
 * Issue 31, folders: a folder tree uploaded with its structure, renamed, moved (dialog and drag and
 * drop), searched across folders, and downloaded as one ZIP that unpacks to identical files.
 */

let dir: string;
test.beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coffer-e2e-folders-'));
});
test.afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const shots = process.env.E2E_SCREENSHOTS;
async function shot(page: Page, name: string): Promise<void> {
  if (shots === undefined) return;
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true, animations: 'disabled' });
}

/** A folder tree on disk: Trip/notes.txt, Trip/day 1/photo.bin, Trip/day 1/deep/<marker>.txt. */
async function writeTree(marker: string): Promise<{ root: string; files: Record<string, string> }> {
  const root = join(dir, 'Trip');
  await mkdir(join(root, 'day 1', 'deep'), { recursive: true });
  const contents: Record<string, Buffer> = {
    'notes.txt': Buffer.from(`notes ${marker}\n`),
    'day 1/photo.bin': randomBytes(300_000),
    [`day 1/deep/${marker}.txt`]: Buffer.from(`deep ${marker}\n`),
  };
  const files: Record<string, string> = {};
  for (const [path, bytes] of Object.entries(contents)) {
    await writeFile(join(root, path), bytes);
    files[path] = await sha256OfFile(join(root, path));
  }
  return { root, files };
}

function folderCard(page: Page, name: string) {
  return page.locator('article[data-folder-id]').filter({ has: page.getByText(name, { exact: true }) });
}
function fileCardNamed(page: Page, name: string) {
  return page.locator('article[data-file-id]').filter({ has: page.getByText(name, { exact: true }) });
}

test('a folder tree is uploaded, renamed, moved, searched and downloaded as a ZIP', async ({ page }) => {
  const person = newPerson('folders');
  await forceServiceWorkerSave(page);
  await readyPerson(page, person);
  const marker = `zz-folder-${randomUUID().slice(0, 8)}`;
  const tree = await writeTree(marker);

  // Upload the folder with "Choose folder": its folders are created, its files go in them.
  await page.getByTestId('folder-input').setInputFiles(tree.root);
  await expect(page.getByTestId('folder-upload-total')).toHaveText('3 of 3 files', { timeout: 120_000 });
  await expect(snackbar(page, 'Folder Trip uploaded (3 files)')).toBeVisible();

  await page.getByRole('link', { name: 'My Files' }).first().click();
  await expect(folderCard(page, 'Trip')).toBeVisible();
  // Folders hold the files: the top lists only the folder.
  await expect(page.locator('article[data-file-id]')).toHaveCount(0);
  await shot(page, 'myfiles-top-desktop');

  await folderCard(page, 'Trip').getByRole('button', { name: 'Open Trip' }).click();
  await expect(page).toHaveURL(/\/myfiles\?folder=[0-9a-f-]{36}$/);
  const crumbs = page.getByRole('navigation', { name: 'Folder path' });
  await expect(crumbs).toContainText('My Files');
  await expect(crumbs).toContainText('Trip');
  await expect(folderCard(page, 'day 1')).toBeVisible();
  await expect(fileCardNamed(page, 'notes.txt')).toBeVisible();
  await shot(page, 'myfiles-folder-desktop');

  // Rename "day 1".
  await page.getByRole('button', { name: 'Rename day 1' }).click();
  const nameField = page.getByRole('dialog').getByRole('textbox', { name: 'Name' });
  await nameField.fill('a/b');
  await page.getByRole('dialog').getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByRole('dialog')).toContainText('A name cannot contain / or \\');
  await nameField.fill('Day One');
  await page.getByRole('dialog').getByRole('button', { name: 'Rename' }).click();
  await expect(folderCard(page, 'Day One')).toBeVisible();
  await expect(folderCard(page, 'day 1')).toHaveCount(0);

  // Move notes.txt into "Day One" with the dialog.
  await page.getByRole('button', { name: 'Move notes.txt' }).click();
  const moveDialog = page.getByRole('dialog', { name: /Move notes.txt to/ });
  await expect(moveDialog).toBeVisible();
  await shot(page, 'move-dialog-desktop');
  await moveDialog.getByRole('radio', { name: 'Day One' }).check();
  await moveDialog.getByRole('button', { name: 'Move here' }).click();
  await expect(fileCardNamed(page, 'notes.txt')).toHaveCount(0);
  await folderCard(page, 'Day One').getByRole('button', { name: 'Open Day One' }).click();
  await expect(fileCardNamed(page, 'notes.txt')).toBeVisible();
  await expect(crumbs).toContainText('Day One');

  // Drag it back onto the "Trip" crumb.
  await fileCardNamed(page, 'notes.txt').dragTo(crumbs.getByRole('link', { name: 'Trip' }));
  await expect(fileCardNamed(page, 'notes.txt')).toHaveCount(0);
  await crumbs.getByRole('link', { name: 'Trip' }).click();
  await expect(fileCardNamed(page, 'notes.txt')).toBeVisible();

  // Search from the top finds the deep file and says where it is.
  await crumbs.getByRole('link', { name: 'My Files' }).click();
  await page.getByRole('textbox', { name: 'Search files' }).fill(marker);
  const found = fileCardNamed(page, `${marker}.txt`);
  await expect(found).toBeVisible();
  await expect(found.getByTestId('file-place')).toHaveText('in My Files › Trip › Day One › deep');
  await page.getByRole('textbox', { name: 'Search files' }).fill('');

  // Select mode: the bar.
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  await folderCard(page, 'Trip').getByRole('checkbox', { name: 'Select Trip' }).check();
  await expect(page.getByTestId('selection-count')).toHaveText('1 selected');
  await shot(page, 'selection-bar-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'selection-bar-390');
  await page.setViewportSize({ width: 1280, height: 800 });

  // The folder as one ZIP: it unpacks to the same bytes, tree kept (with the renamed folder).
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 120_000 }),
    page.getByRole('region', { name: 'Selection' }).getByRole('button', { name: 'Download ZIP' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('Trip.zip');
  const zipPath = join(dir, 'Trip.zip');
  await download.saveAs(zipPath);
  const out = join(dir, 'unzipped');
  execFileSync('unzip', ['-q', zipPath, '-d', out]);
  const expected: Record<string, string> = {
    'Trip/notes.txt': tree.files['notes.txt'] ?? '',
    'Trip/Day One/photo.bin': tree.files['day 1/photo.bin'] ?? '',
    [`Trip/Day One/deep/${marker}.txt`]: tree.files[`day 1/deep/${marker}.txt`] ?? '',
  };
  for (const [path, sha] of Object.entries(expected)) expect(await sha256OfFile(join(out, path))).toBe(sha);
  await expect(snackbar(page, 'Trip.zip downloaded')).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Done' }).first().click();
  await shot(page, 'myfiles-top-390');
});
