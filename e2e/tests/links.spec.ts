import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { readyPerson } from '../helpers/accounts.js';
import { newPerson } from '../helpers/auth.js';
import {
  downloadAndHash,
  fileCard,
  forceServiceWorkerSave,
  sha256OfFile,
  snackbar,
  writeTestFile,
  writeTextFile,
  type TestFile,
} from '../helpers/files.js';
import { createLink, linkIdOf, ownerCall, pickOption, screenshots, strangerPage } from '../helpers/links.js';

/**
 * Issue 30, share links: a person with no account opens a link in a fresh browser and gets the
 * file byte for byte (a small one and one of more than 100 MB, uploaded in parts), with a password
 * too; expired, used up and revoked links answer a clear page, and so does an altered fragment.
 */

let dir: string;
test.beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coffer-e2e-links-'));
});
test.afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const unavailable = (page: Page) =>
  page.getByRole('heading', { level: 1, name: 'This link is no longer available' });

async function uploaded(page: Page, files: readonly TestFile[]): Promise<void> {
  await page.goto('/new');
  await expect(page.getByText('Drop files here or click to upload')).toBeVisible();
  // The files input, not the folder one New Upload may also have.
  await page
    .locator('input[type="file"]:not([webkitdirectory])')
    .setInputFiles(files.map((file) => file.path));
  for (const file of files) await expect(page.getByRole('listitem', { name: file.name })).toBeVisible();
  await page.getByRole('button', { name: 'Upload Files' }).click();
  // Successful items leave the list; the batch ends with one summary snackbar.
  for (const file of files) {
    await expect(page.getByRole('listitem', { name: file.name })).toBeHidden({ timeout: 300_000 });
  }
  await expect(
    snackbar(
      page,
      files.length === 1 ? 'File uploaded successfully!' : `${files.length} files uploaded successfully!`,
    ),
  ).toBeVisible();
  await page.goto('/myfiles');
  for (const file of files) await expect(fileCard(page, file.name)).toBeVisible();
}

/** Opens a link in a fresh context and downloads the named file; returns its SHA-256. */
async function fetchThroughLink(
  browser: Parameters<typeof strangerPage>[0],
  url: string,
  name: string,
  password?: string,
): Promise<string> {
  const { context, page } = await strangerPage(browser);
  try {
    await page.goto(url);
    if (password !== undefined) {
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Open' }).click();
    }
    await expect(page.getByText(name, { exact: true })).toBeVisible({ timeout: 60_000 });
    const { sha256 } = await downloadAndHash(
      page,
      () => page.getByRole('button', { name: `Download ${name}` }).click(),
      240_000,
    );
    await expect(page.locator('[data-download-state="complete"]')).toBeVisible({ timeout: 240_000 });
    return sha256;
  } finally {
    await context.close();
  }
}

test('a person without an account downloads a small and a 100 MB+ file through links', async ({
  page,
  browser,
}) => {
  test.setTimeout(900_000);
  await forceServiceWorkerSave(page);
  const owner = newPerson('links-owner');
  await readyPerson(page, owner);
  const small = await writeTextFile(dir, `notes-${randomUUID().slice(0, 8)}.txt`, 'LINK-SMALL');
  const large = await writeTestFile(
    dir,
    `video-${randomUUID().slice(0, 8)}.bin`,
    101 * 1024 * 1024 + 7,
    'LINK-LARGE',
  );
  await uploaded(page, [small, large]);

  const smallUrl = await createLink(page, small.name, {
    label: 'For the accountant',
    screenshot: 'link-create',
  });
  const largeUrl = await createLink(page, large.name, { expires: '1 day', limit: '5 downloads' });

  const { context, page: stranger } = await strangerPage(browser);
  await stranger.goto(smallUrl);
  await expect(stranger.getByRole('heading', { level: 1, name: 'A file was shared with you' })).toBeVisible();
  await expect(stranger.getByText(`Link signed by ${owner.email}`)).toBeVisible();
  await screenshots(stranger, 'link-page-open');
  await context.close();

  expect(await fetchThroughLink(browser, smallUrl, small.name)).toBe(small.sha256);
  expect(await fetchThroughLink(browser, largeUrl, large.name)).toBe(large.sha256);

  // The owner's list: both links, the label decrypted, downloads counted.
  await page.goto('/myfiles');
  await page.getByRole('link', { name: 'Links', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Links' })).toBeVisible();
  await expect(page.getByText('For the accountant')).toBeVisible();
  await expect(page.locator(`[data-link-id="${linkIdOf(largeUrl)}"]`)).toContainText('4 of 5 downloads left');
  await screenshots(page, 'links-screen');
});

test('password, last download, revoke, expiry and a damaged fragment', async ({ page, browser }) => {
  test.setTimeout(600_000);
  const owner = newPerson('links-rules');
  await readyPerson(page, owner);
  const file = await writeTextFile(dir, `lease-${randomUUID().slice(0, 8)}.txt`, 'LINK-RULES');
  await uploaded(page, [file]);

  // Password: a wrong one is refused on the page, the right one opens and downloads.
  const withPassword = await createLink(page, file.name, { password: 'Violet-Harbor-77' });
  {
    const { context, page: stranger } = await strangerPage(browser);
    await stranger.goto(withPassword);
    await expect(stranger.getByRole('heading', { level: 1, name: /This link has a password/ })).toBeVisible();
    await screenshots(stranger, 'link-page-password');
    await stranger.getByLabel('Password', { exact: true }).fill('violet-harbor-77');
    await stranger.getByRole('button', { name: 'Open' }).click();
    await expect(stranger.getByText('The password does not open this link.')).toBeVisible({
      timeout: 60_000,
    });
    await context.close();
  }
  expect(await fetchThroughLink(browser, withPassword, file.name, 'Violet-Harbor-77')).toBe(file.sha256);

  // One download allowed: the second visitor gets the clear page.
  const once = await createLink(page, file.name, { limit: '1 download' });
  expect(await fetchThroughLink(browser, once, file.name)).toBe(file.sha256);
  {
    const { context, page: stranger } = await strangerPage(browser);
    await stranger.goto(once);
    await expect(unavailable(stranger)).toBeVisible();
    await screenshots(stranger, 'link-page-unavailable');
    await context.close();
  }

  // Revoked from the Links screen.
  const revoked = await createLink(page, file.name);
  await page.goto('/links');
  await page
    .locator(`[data-link-id="${linkIdOf(revoked)}"]`)
    .getByRole('button', { name: /^Revoke link/ })
    .click();
  const confirm = page.getByRole('dialog', { name: 'Revoke this link?' });
  await screenshots(page, 'links-revoke');
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.locator(`[data-link-id="${linkIdOf(revoked)}"]`)).toHaveCount(0);
  {
    const { context, page: stranger } = await strangerPage(browser);
    await stranger.goto(revoked);
    await expect(unavailable(stranger)).toBeVisible();
    await context.close();
  }

  // Expiry on the server's clock: changed from the Links screen to half a minute ahead (the record
  // signed again in the browser; a bare PATCH without one is refused), then the page once the server says so.
  const expiring = await createLink(page, file.name);
  const id = linkIdOf(expiring);
  const unsigned = new Date(Date.now() + 60_000).toISOString();
  expect((await ownerCall(page, 'PATCH', `/users/links/${id}`, { expiresAt: unsigned })).status).toBe(400);
  await page.goto('/links');
  const card = page.locator(`[data-link-id="${id}"]`);
  await expect(card).toContainText('Expires');
  await card.getByRole('button', { name: /^Change expiry and limit/ }).click();
  const change = page.getByRole('dialog', { name: 'Change expiry and limit' });
  await expect(change).toBeVisible();
  await pickOption(
    page,
    change.getByRole('textbox', { name: 'Expires' }).or(change.getByRole('combobox', { name: 'Expires' })),
    'On a date…',
  );
  // The field is the browser's local time, to the second.
  const soon = await page.evaluate(() => {
    const at = new Date(Date.now() + 30_000);
    return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
  });
  await change.getByLabel('Expiry date and time').fill(soon);
  await screenshots(page, 'link-change');
  await change.getByRole('button', { name: 'Save' }).click();
  await expect(change).toBeHidden();
  await expect
    .poll(async () => (await page.request.get(`/api/public/links/${id}`)).status(), { timeout: 120_000 })
    .toBe(404);
  await page.reload();
  await expect(card).toHaveAttribute('data-link-state', 'expired');
  {
    const { context, page: stranger } = await strangerPage(browser);
    await stranger.goto(expiring);
    await expect(unavailable(stranger)).toBeVisible();
    await context.close();
  }

  // A fragment altered by one character: a clear page, no error dump.
  const good = await createLink(page, file.name);
  const [base = '', secret = ''] = good.split('#');
  const altered = `${base}#${secret.startsWith('A') ? 'B' : 'A'}${secret.slice(1)}`;
  {
    const { context, page: stranger } = await strangerPage(browser);
    await stranger.goto(altered);
    await expect(stranger.getByRole('heading', { level: 1, name: 'This link is damaged' })).toBeVisible();
    await screenshots(stranger, 'link-page-damaged');
    await context.close();
  }
});

test('one link for three files: each downloads, and all of them as one ZIP, byte for byte', async ({
  page,
  browser,
}) => {
  test.setTimeout(600_000);
  await forceServiceWorkerSave(page);
  const owner = newPerson('links-multi');
  await readyPerson(page, owner);
  const tag = randomUUID().slice(0, 8);
  const files = [
    await writeTextFile(dir, `invoice-${tag}.txt`, 'LINK-MULTI-1'),
    await writeTextFile(dir, `contract-${tag}.txt`, 'LINK-MULTI-2'),
    await writeTestFile(dir, `scan-${tag}.bin`, 3 * 1024 * 1024 + 11, 'LINK-MULTI-3'),
  ];
  await uploaded(page, files);

  // My Files' selection bar: the three files, then Create link with a limit.
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  for (const file of files)
    await fileCard(page, file.name)
      .getByRole('checkbox', { name: `Select ${file.name}` })
      .check();
  await expect(page.getByTestId('selection-count')).toHaveText('3 selected');
  await page.getByRole('region', { name: 'Selection' }).getByRole('button', { name: 'Create link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create a link' });
  await expect(dialog).toContainText('3 files');
  await pickOption(
    page,
    dialog
      .getByRole('textbox', { name: 'Download limit' })
      .or(dialog.getByRole('combobox', { name: 'Download limit' })),
    '5 downloads',
  );
  await screenshots(page, 'link-multi-form');
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const field = dialog.getByRole('textbox', { name: 'Link' });
  await expect(field).toHaveValue(/\/l\/[A-Za-z0-9_-]{22}#[A-Za-z0-9_-]{43}\.[0-9a-f]{64}$/, {
    timeout: 60_000,
  });
  const url = await field.inputValue();
  await dialog.getByRole('button', { name: 'Done' }).click();

  const { context, page: stranger } = await strangerPage(browser);
  try {
    await stranger.goto(url);
    await expect(
      stranger.getByRole('heading', { level: 1, name: '3 files were shared with you' }),
    ).toBeVisible({
      timeout: 60_000,
    });
    await expect(stranger.locator('[data-link-signer="pinned"]')).toBeVisible();
    for (const file of files) await expect(stranger.getByText(file.name, { exact: true })).toBeVisible();
    await screenshots(stranger, 'link-multi-page');
    // Each file on its own (one download session: counted once).
    for (const file of files) {
      const { sha256 } = await downloadAndHash(stranger, () =>
        stranger.getByRole('button', { name: `Download ${file.name}` }).click(),
      );
      expect(sha256).toBe(file.sha256);
    }
    // All of them as one streaming ZIP (a new session: they were started already).
    const [download] = await Promise.all([
      stranger.waitForEvent('download', { timeout: 120_000 }),
      stranger.getByRole('button', { name: 'Download all as ZIP' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('Shared files.zip');
    const zipPath = join(dir, `multi-${tag}.zip`);
    await download.saveAs(zipPath);
    const out = join(dir, `multi-${tag}`);
    execFileSync('unzip', ['-q', zipPath, '-d', out]);
    for (const file of files) expect(await sha256OfFile(join(out, file.name))).toBe(file.sha256);
    await expect(stranger.getByText('Shared files.zip downloaded')).toBeVisible();
  } finally {
    await context.close();
  }

  // Two downloads of the link: the three single files in one session, the ZIP in another.
  await page.goto('/links');
  await expect(page.locator(`[data-link-id="${linkIdOf(url)}"]`)).toContainText('3 of 5 downloads left');
});
