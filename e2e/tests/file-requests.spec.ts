import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { readyPerson } from '../helpers/accounts.js';
import { newPerson } from '../helpers/auth.js';
import { downloadAndHash, fileCard, forceServiceWorkerSave, writeTextFile } from '../helpers/files.js';
import { screenshots, strangerPage } from '../helpers/links.js';

/**
 * Issue 30, file requests: the owner makes a request; a person with no account opens its link in a
 * fresh browser, drops a file and a note, each encrypted there to the owner's key (checked against
 * the link's fingerprint); the file arrives in the owner's My Files and downloads byte for byte.
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
