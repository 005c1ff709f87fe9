import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { readyPerson } from '../helpers/accounts.js';
import { newPerson } from '../helpers/auth.js';
import {
  downloadAndHash,
  forceServiceWorkerSave,
  sha256OfFile,
  snackbar,
  startUpload,
  writeTextFile,
} from '../helpers/files.js';

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
async function writeTree(
  marker: string,
  base = dir,
): Promise<{ root: string; files: Record<string, string> }> {
  const root = join(base, 'Trip');
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
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByRole('button', { name: 'Choose folder' }).click(),
  ]);
  await chooser.setFiles(tree.root);
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
  const out = join(dir, 'unzipped');
  expect(await downloadSelectionZip(page, out)).toBe('Trip.zip');
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

test('a folder tree dropped from the OS and a loose file land in the folder New Upload was opened from', async ({
  page,
}) => {
  const person = newPerson('folder-drop');
  await forceServiceWorkerSave(page);
  await readyPerson(page, person);
  const marker = `zz-drop-${randomUUID().slice(0, 8)}`;
  // Its own Trip: the first test's tree sits in `dir`.
  const tree = await writeTree(marker, await mkdtemp(join(dir, 'drop-')));
  const loose = await writeTextFile(dir, `loose-${marker}.txt`, `loose ${marker}`);

  // A folder "Inbox"; from inside it, Upload opens New Upload for that folder.
  await page.getByRole('link', { name: 'My Files' }).first().click();
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByRole('dialog', { name: 'New folder' }).getByRole('textbox', { name: 'Name' }).fill('Inbox');
  await page.getByRole('dialog', { name: 'New folder' }).getByRole('button', { name: 'Create' }).click();
  await folderCard(page, 'Inbox').getByRole('button', { name: 'Open Inbox' }).click();
  await expect(page).toHaveURL(/\/myfiles\?folder=[0-9a-f-]{36}$/);
  const inbox = new URL(page.url()).searchParams.get('folder') ?? '';
  await page.getByRole('link', { name: 'Upload', exact: true }).first().click();
  await expect(page).toHaveURL(`/new?folder=${inbox}`);
  await expect(page.getByTestId('upload-place')).toHaveText('Uploading into My Files › Inbox');

  // A loose file goes into Inbox.
  await startUpload(page, [loose]);
  await expect(snackbar(page, 'File uploaded successfully!')).toBeVisible();

  // The tree dropped as the OS drops it: Chromium hands the page real FileSystemEntry objects.
  await page.evaluate(() => {
    window.addEventListener(
      'drop',
      (event) => {
        const entry = event.dataTransfer?.items[0]?.webkitGetAsEntry();
        document.body.dataset.droppedEntry =
          entry === null || entry === undefined
            ? 'none'
            : `${Object.prototype.toString.call(entry)} ${entry.isDirectory ? 'directory' : 'file'} ${entry.name}`;
      },
      { capture: true },
    );
  });
  await dropFromOs(page, page.getByTestId('dropzone-text'), [tree.root]);
  await expect(page.locator('body')).toHaveAttribute(
    'data-dropped-entry',
    /^\[object \w*DirectoryEntry\] directory Trip$/,
  );
  await expect(page.getByTestId('folder-upload-total')).toHaveText('3 of 3 files', { timeout: 120_000 });
  await expect(snackbar(page, 'Folder Trip uploaded (3 files)')).toBeVisible();
  // The drop zone does not stay in its "drag accepted" look after the folder was taken.
  await expect(page.locator('[data-accept]')).toHaveCount(0);
  await expect(page.locator('[data-idle]')).toHaveCount(1);
  await shot(page, 'folder-drop-desktop');

  // Back to the folder: the file and the tree are in Inbox, nothing at the top.
  await page.getByRole('link', { name: 'Back to My Files' }).click();
  await expect(page).toHaveURL(`/myfiles?folder=${inbox}`);
  await expect(folderCard(page, 'Trip')).toBeVisible();
  await expect(fileCardNamed(page, loose.name)).toBeVisible();
  await shot(page, 'folder-and-file-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'folder-and-file-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  const { sha256 } = await downloadAndHash(page, () =>
    page.getByRole('button', { name: `Download ${loose.name}` }).click(),
  );
  expect(sha256).toBe(loose.sha256);
  await page.getByRole('navigation', { name: 'Folder path' }).getByRole('link', { name: 'My Files' }).click();
  await expect(folderCard(page, 'Inbox')).toBeVisible();
  await expect(folderCard(page, 'Trip')).toHaveCount(0);
  await expect(page.locator('article[data-file-id]')).toHaveCount(0);

  // Every file of the dropped tree, byte for byte, in its place.
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  await folderCard(page, 'Inbox').getByRole('checkbox', { name: 'Select Inbox' }).check();
  const out = join(dir, `inbox-${marker}`);
  await downloadSelectionZip(page, out);
  expect(await sha256OfFile(join(out, 'Inbox', loose.name))).toBe(loose.sha256);
  for (const [path, sha] of Object.entries(tree.files))
    expect(await sha256OfFile(join(out, 'Inbox', 'Trip', path))).toBe(sha);
});

test('a folder shared with a contact shows a file added after the share, which downloads; revoke removes it', async ({
  browser,
}) => {
  const aliceContext = await browser.newContext();
  const bobContext = await browser.newContext();
  const a = await aliceContext.newPage();
  const b = await bobContext.newPage();
  try {
    const alice = newPerson('folder-owner');
    const bob = newPerson('folder-member');
    await forceServiceWorkerSave(a);
    await forceServiceWorkerSave(b);
    await readyPerson(b, bob);
    await readyPerson(a, alice);
    const marker = randomUUID().slice(0, 8);
    const before = await writeTextFile(dir, `before-${marker}.txt`, `before ${marker}`);
    const after = await writeTextFile(dir, `after-${marker}.txt`, `after ${marker}`);

    // Alice: a folder with one file in it.
    await startUpload(a, [before]);
    await expect(snackbar(a, 'File uploaded successfully!')).toBeVisible();
    await a.getByRole('link', { name: 'My Files' }).first().click();
    await a.getByRole('button', { name: 'New folder' }).click();
    await a.getByRole('dialog', { name: 'New folder' }).getByRole('textbox', { name: 'Name' }).fill('Team');
    await a.getByRole('dialog', { name: 'New folder' }).getByRole('button', { name: 'Create' }).click();
    await expect(folderCard(a, 'Team')).toBeVisible();
    await moveInto(a, before.name, 'Team');

    // Alice adds Bob and shares the folder with him.
    await a.getByRole('link', { name: 'Contacts' }).first().click();
    await a.getByRole('button', { name: 'Add Contact', exact: true }).click();
    const addDialog = a.getByRole('dialog', { name: 'Add contact' });
    await addDialog.getByLabel(/^Name/).fill(bob.name);
    await addDialog.getByLabel(/^Email/).fill(bob.email);
    await addDialog.getByRole('button', { name: 'Add contact' }).click();
    await expect(snackbar(a, 'Contact added successfully!')).toBeVisible();
    await a.getByRole('link', { name: 'My Files' }).first().click();
    await folderCard(a, 'Team').getByRole('button', { name: 'Share Team' }).click();
    const shareDialog = a.getByRole('dialog', { name: 'Share Team' });
    await shareDialog.getByRole('checkbox', { name: new RegExp(bob.email.replace(/[.+]/g, '\\$&')) }).check();
    await shareDialog.getByRole('button', { name: 'Share', exact: true }).click();
    await expect(snackbar(a, `Folder Team shared with ${bob.name}`)).toBeVisible();
    await expect(shareDialog.getByRole('list', { name: 'Shared with' })).toContainText(bob.email);
    await shareDialog.getByRole('button', { name: 'Close' }).click();

    // After the share, Alice adds another file to the folder.
    await a.getByRole('link', { name: 'New Upload' }).first().click();
    await startUpload(a, [after]);
    await expect(snackbar(a, 'File uploaded successfully!')).toBeVisible();
    await a.getByRole('link', { name: 'My Files' }).first().click();
    await moveInto(a, after.name, 'Team');

    // Bob sees the folder in Shared With Me, with both files, and downloads the later one.
    await b.getByRole('link', { name: 'Shared With Me' }).first().click();
    await expect(folderCard(b, 'Team')).toBeVisible();
    await folderCard(b, 'Team').getByRole('button', { name: 'Open Team' }).click();
    await expect(b).toHaveURL(/\/sharedwithme\?folder=/);
    await expect(fileCardNamed(b, before.name)).toBeVisible();
    await expect(fileCardNamed(b, after.name)).toBeVisible();
    await expect(b.getByTestId('node-refused')).toHaveCount(0);
    await shot(b, 'shared-folder-desktop');
    await b.setViewportSize({ width: 390, height: 844 });
    await shot(b, 'shared-folder-390');
    await b.setViewportSize({ width: 1280, height: 800 });
    const [download] = await Promise.all([
      b.waitForEvent('download', { timeout: 120_000 }),
      b.getByRole('button', { name: `Download ${after.name}` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(after.name);
    expect(await sha256OfFile(await download.path())).toBe(after.sha256);

    // Bob selects everything in the folder and downloads it as one ZIP.
    await b.getByRole('button', { name: 'Select', exact: true }).click();
    await b.getByRole('region', { name: 'Selection' }).getByRole('button', { name: 'Select all' }).click();
    await expect(b.getByTestId('selection-count')).toHaveText('2 selected');
    const out = join(dir, `team-${marker}`);
    expect(await downloadSelectionZip(b, out)).toBe('Team.zip');
    expect(await sha256OfFile(join(out, before.name))).toBe(before.sha256);
    expect(await sha256OfFile(join(out, after.name))).toBe(after.sha256);

    // Bob selects the shared folder in Shared With Me's own list and downloads it as one ZIP: the
    // folder under its name, each file checked against Alice's records first.
    await b.getByRole('link', { name: 'Shared With Me' }).first().click();
    await expect(folderCard(b, 'Team')).toBeVisible();
    await b.getByRole('button', { name: 'Select', exact: true }).click();
    await folderCard(b, 'Team').getByRole('checkbox', { name: 'Select Team' }).check();
    await expect(b.getByTestId('selection-count')).toHaveText('1 selected');
    await shot(b, 'shared-with-me-selection');
    const topOut = join(dir, `top-${marker}`);
    expect(await downloadSelectionZip(b, topOut)).toBe('Team.zip');
    expect(await sha256OfFile(join(topOut, 'Team', before.name))).toBe(before.sha256);
    expect(await sha256OfFile(join(topOut, 'Team', after.name))).toBe(after.sha256);

    // Alice revokes: the folder is gone from Bob's list.
    await folderCard(a, 'Team').getByRole('button', { name: 'Share Team' }).click();
    await a.getByRole('dialog', { name: 'Share Team' }).getByRole('button', { name: 'Revoke' }).click();
    await a.getByRole('dialog', { name: 'Revoke access?' }).getByRole('button', { name: 'Revoke' }).click();
    await expect(snackbar(a, `Access to Team revoked for ${bob.email}`)).toBeVisible();
    await b.goto('/sharedwithme');
    await expect(b.getByRole('heading', { name: 'Shared With Me' })).toBeVisible();
    await expect(folderCard(b, 'Team')).toHaveCount(0);
  } finally {
    await aliceContext.close();
    await bobContext.close();
  }
});

/**
 * Drops files or folders from disk onto `target` the way the OS does: Chromium's
 * Input.dispatchDragEvent with file paths gives the page a DataTransfer whose items open as real
 * FileSystemEntry objects (webkitGetAsEntry), a folder as a FileSystemDirectoryEntry.
 */
/**
 * Clicks the selection's Download ZIP, saves what the browser downloaded next to `out` and unpacks
 * it into `out`; answers the ZIP's suggested file name.
 */
async function downloadSelectionZip(page: Page, out: string): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 120_000 }),
    page.getByRole('region', { name: 'Selection' }).getByRole('button', { name: 'Download ZIP' }).click(),
  ]);
  const zipPath = `${out}.zip`;
  await download.saveAs(zipPath);
  execFileSync('unzip', ['-q', zipPath, '-d', out]);
  return download.suggestedFilename();
}

async function dropFromOs(page: Page, target: Locator, paths: readonly string[]): Promise<void> {
  const box = await target.boundingBox();
  if (box === null) throw new Error('drop target not visible');
  const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const data = { items: [], files: [...paths], dragOperationsMask: 1 };
  const cdp = await page.context().newCDPSession(page);
  try {
    for (const type of ['dragEnter', 'dragOver', 'drop'] as const)
      await cdp.send('Input.dispatchDragEvent', { type, ...at, data });
  } finally {
    await cdp.detach();
  }
}

/** Moves a file of the page's current folder into a folder with "Move to…". */
async function moveInto(page: Page, fileName: string, folderName: string): Promise<void> {
  await page.getByRole('button', { name: `Move ${fileName}` }).click();
  const dialog = page.getByRole('dialog', { name: new RegExp(`Move ${fileName.replace(/[.]/g, '\\.')} to`) });
  await dialog.getByRole('radio', { name: folderName }).check();
  await dialog.getByRole('button', { name: 'Move here' }).click();
  await expect(fileCardNamed(page, fileName)).toHaveCount(0);
}
