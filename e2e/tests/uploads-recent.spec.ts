import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { readyPerson } from '../helpers/accounts.js';
import { newPerson } from '../helpers/auth.js';
import { snackbar, startUpload, writeTextFile, type TestFile } from '../helpers/files.js';

/**
 * The upload screen lists my recent uploads (GET /users/uploads?limit=20) with the spec's texts:
 * 'No uploads found' before the first one, 'Error loading uploads!' when the list cannot be loaded.
 * Shared With Me says 'No shared files found' when a search hides every shared file.
 */

let dir: string;
let note: TestFile;

test.beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coffer-e2e-recent-'));
  note = await writeTextFile(dir, 'recent-note.txt', 'RECENT-UPLOAD');
});
test.afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('recent uploads: none yet, then the new upload; a failed load says so', async ({ page }) => {
  await readyPerson(page, newPerson('recent'));
  const recent = page.getByRole('region', { name: 'Recent uploads' });
  await expect(recent.getByText('No uploads found')).toBeVisible();

  await startUpload(page, [note]);
  await expect(snackbar(page, 'File uploaded successfully!')).toBeVisible();
  const item = recent.getByRole('listitem').filter({ hasText: note.name });
  await expect(item).toBeVisible();
  await expect(item.getByText('Uploaded')).toBeVisible();
  await expect(recent.getByText('No uploads found')).toBeHidden();

  await page.route('**/api/users/uploads?*', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: '{"code":"INTERNAL","message":"x"}',
    }),
  );
  await page.reload();
  await expect(snackbar(page, 'Error loading uploads!')).toBeVisible();
  await expect(recent.getByText('Error loading uploads!')).toBeVisible();
});

test('Shared With Me: a search that hides every shared file says No shared files found', async ({ page }) => {
  await readyPerson(page, newPerson('sharedsearch'));
  // One file shared with me, answered by the test so no second account is needed.
  await page.route('**/api/users/files/shared?*', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        files: [
          {
            fileId: 'f-1',
            owner: 'sender@example.com',
            file: {
              name: 'holiday.jpg',
              contentType: 'image/jpeg',
              size: 2048,
              uploadedAt: new Date().toISOString(),
              isEncrypted: true,
            },
          },
        ],
      }),
    }),
  );
  await page.goto('/sharedwithme');
  await expect(page.getByRole('article', { name: 'holiday.jpg' })).toBeVisible();
  await page.getByPlaceholder('Search by name or sender').fill('no such file');
  await expect(page.getByText('No shared files found')).toBeVisible();
  await page.getByPlaceholder('Search by name or sender').fill('');
  await expect(page.getByRole('article', { name: 'holiday.jpg' })).toBeVisible();
});
