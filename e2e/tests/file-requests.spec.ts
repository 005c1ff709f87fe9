import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { createConfirmedAccount, readyPerson } from '../helpers/accounts.js';
import { fillSignIn, newPerson, setUpEncryption } from '../helpers/auth.js';
import {
  downloadAndHash,
  e2eDataDir,
  fileCard,
  filesContaining,
  forceServiceWorkerSave,
  writeTextFile,
} from '../helpers/files.js';
import { screenshots, strangerPage } from '../helpers/links.js';

/**
 * Issue 30, file requests: the owner makes a request; a person with no account opens its link in a
 * fresh browser, drops a file and a note, each encrypted there to the owner's key (checked against
 * the link's fingerprint), its name sealed too (the server's database, log and blobs never hold it);
 * the file arrives in the owner's My Files under its name and downloads byte for byte. A request for
 * signed-in people only asks a signed-out visitor to sign in, and tells the owner who sent each file.
 */

let dir: string;
test.beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coffer-e2e-requests-'));
});
test.afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('a file request filled by a person without an account arrives in My Files', async ({
  page,
  browser,
}) => {
  test.setTimeout(600_000);
  await forceServiceWorkerSave(page);
  const owner = newPerson('requests-owner');
  await readyPerson(page, owner);

  await page.goto('/links');
  await page.getByRole('button', { name: 'Request files' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Request files' });
  await dialog.getByLabel('Message (optional)').fill('Please send the signed lease.');
  await screenshots(page, 'request-create-form');
  await dialog.getByRole('button', { name: 'Create request' }).click();
  const field = dialog.getByRole('textbox', { name: 'Link' });
  await expect(field).toHaveValue(/\/r\/[A-Za-z0-9_-]{22}#[A-Za-z0-9_-]{43}\.[0-9a-f]{64}$/, {
    timeout: 60_000,
  });
  await screenshots(page, 'request-create-made');
  const url = await field.inputValue();
  await dialog.getByRole('button', { name: 'Done' }).click();

  const file = await writeTextFile(dir, `lease-${randomUUID().slice(0, 8)}.txt`, 'REQUEST-FILE');
  const { context, page: stranger } = await strangerPage(browser);
  await stranger.goto(url);
  await expect(stranger.getByRole('heading', { level: 1, name: `Send files to ${owner.email}` })).toBeVisible(
    {
      timeout: 60_000,
    },
  );
  await expect(stranger.getByText('Please send the signed lease.')).toBeVisible();
  await stranger.locator('input[type="file"]').setInputFiles(file.path);
  await stranger.getByLabel('Note (optional)').fill('Signed on page 3.');
  await screenshots(stranger, 'request-page');
  await stranger.getByRole('button', { name: 'Send' }).click();
  await expect(stranger.locator(`[data-request-upload="${file.name}"]`)).toHaveAttribute(
    'data-upload-state',
    'done',
    {
      timeout: 120_000,
    },
  );
  await expect(stranger.locator('[data-request-upload="Note.txt"]')).toHaveAttribute(
    'data-upload-state',
    'done',
  );
  await screenshots(stranger, 'request-page-sent');
  await context.close();
  // The name reached the server sealed: neither the database (with its journal), nor the server's
  // log, nor the blobs hold it (before the owner's browser has even seen the file).
  expect(await filesContaining(e2eDataDir(), file.name)).toEqual([]);

  // The owner: the file in My Files, byte for byte; the request lists it.
  await page.goto('/myfiles');
  const card = fileCard(page, file.name);
  await expect(card).toBeVisible({ timeout: 60_000 });
  const { sha256 } = await downloadAndHash(page, () =>
    page.getByRole('button', { name: `Download ${file.name}` }).click(),
  );
  expect(sha256).toBe(file.sha256);
  await page.goto('/links');
  await expect(page.locator('[data-request-id]')).toContainText(file.name);
  await screenshots(page, 'links-screen-request');
  // Placed in the owner's drive by their browser: still no clear name on the server.
  expect(await filesContaining(e2eDataDir(), file.name)).toEqual([]);
});

test('a request link whose fingerprint does not match the served key stops before anything is sent', async ({
  page,
  browser,
}) => {
  const owner = newPerson('requests-swap');
  await readyPerson(page, owner);
  await page.goto('/links');
  await page.getByRole('button', { name: 'Request files' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Request files' });
  await dialog.getByRole('button', { name: 'Create request' }).click();
  const field = dialog.getByRole('textbox', { name: 'Link' });
  await expect(field).toHaveValue(/#/, { timeout: 60_000 });
  const url = await field.inputValue();
  // Another key's fingerprint in the fragment: what the uploader sees if the server swaps the key.
  const swapped = url.replace(/\.[0-9a-f]{64}$/, `.${'ab'.repeat(32)}`);
  const { context, page: stranger } = await strangerPage(browser);
  await stranger.goto(swapped);
  await expect(
    stranger.getByRole('heading', { level: 1, name: 'The recipient’s key does not match this link' }),
  ).toBeVisible({ timeout: 60_000 });
  await expect(stranger.locator('input[type="file"]')).toHaveCount(0);
  await screenshots(stranger, 'request-page-key-mismatch');
  await context.close();
});

test('a request for signed-in people only asks a visitor to sign in, brings them back, and names them to the owner', async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  const owner = newPerson('requests-only-owner');
  await readyPerson(page, owner);
  await page.goto('/links');
  await page.getByRole('button', { name: 'Request files' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Request files' });
  await dialog.getByLabel('Only people signed in to Coffer can send files').check();
  await dialog.getByRole('button', { name: 'Create request' }).click();
  const field = dialog.getByRole('textbox', { name: 'Link' });
  await expect(field).toHaveValue(/#/, { timeout: 60_000 });
  const url = await field.inputValue();
  await dialog.getByRole('button', { name: 'Done' }).click();

  // A visitor who is not signed in: a page that says why, with the way to sign in, and no drop zone.
  const sender = newPerson('requests-only-sender');
  await createConfirmedAccount(sender);
  const { context, page: visitor } = await strangerPage(browser);
  await visitor.goto(url);
  await expect(visitor.getByRole('heading', { level: 1, name: 'Sign in to send files' })).toBeVisible({
    timeout: 60_000,
  });
  await expect(visitor.locator('input[type="file"]')).toHaveCount(0);
  await screenshots(visitor, 'request-page-sign-in');
  // Signing in (and setting up encryption, a first sign-in) comes back to the request.
  await visitor.getByRole('button', { name: 'Sign in' }).click();
  await fillSignIn(visitor, sender);
  await setUpEncryption(visitor, sender.masterKey);
  await expect(visitor.getByRole('heading', { level: 1, name: `Send files to ${owner.email}` })).toBeVisible({
    timeout: 60_000,
  });
  await expect(visitor.locator('[data-request-signed-in]')).toBeVisible();
  const file = await writeTextFile(dir, `signed-${randomUUID().slice(0, 8)}.txt`, 'SIGNED-IN-FILE');
  await visitor.locator('input[type="file"]').setInputFiles(file.path);
  await visitor.getByRole('button', { name: 'Send' }).click();
  await expect(visitor.locator(`[data-request-upload="${file.name}"]`)).toHaveAttribute(
    'data-upload-state',
    'done',
    { timeout: 120_000 },
  );
  await context.close();

  // The owner sees who sent it.
  await page.goto('/myfiles');
  await expect(fileCard(page, file.name)).toBeVisible({ timeout: 60_000 });
  await page.goto('/links');
  await expect(page.locator('[data-request-id]')).toContainText(`${file.name} (from ${sender.email})`);
  await screenshots(page, 'links-screen-request-sender');
});
