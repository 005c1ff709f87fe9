import { stat } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { fileCard, sha256OfFile, snackbar, type TestFile } from '../../helpers/files.js';
import { elapsed } from '../bench-units.js';
import { TransferFailed, transferTimeoutMs } from './measured-run.js';
import type { Harness } from './session.js';

/**
 * Through the New Upload screen: timed from the Upload Files click to the success snackbar.
 * @throws {TransferFailed} the row turned to failed (its status text is the message).
 */
export async function encryptedUpload(h: Harness, file: TestFile): Promise<number> {
  const { page } = h;
  await page.getByRole('link', { name: 'New Upload' }).first().click();
  await page.getByText('Drop files here or click to upload').waitFor();
  const input = page.locator('input[type="file"]:not([webkitdirectory])');
  await input.setInputFiles([]);
  await input.setInputFiles(file.path);
  const row = page.getByRole('listitem', { name: file.name });
  await row.waitFor();
  const done = snackbar(page, 'File uploaded successfully!');
  await done.waitFor({ state: 'hidden', timeout: 30_000 });
  const failed = row.and(page.locator('[data-upload-phase="failed"]'));
  const timeout = transferTimeoutMs(file.size);
  const start = process.hrtime.bigint();
  await page.getByRole('button', { name: 'Upload Files' }).click();
  const succeeding = done.waitFor({ timeout }).then(() => 'done' as const);
  const failing = failed.waitFor({ timeout }).then(() => 'failed' as const);
  // The loser of the race rejects later (timeout, context closed): that is expected.
  succeeding.catch(() => undefined);
  failing.catch(() => undefined);
  const outcome = await Promise.race([succeeding, failing]);
  const seconds = elapsed(start);
  if (outcome === 'failed') {
    const status = await row.getByTestId('upload-status').innerText();
    // Clears the failed row, so the screen is as before.
    await page
      .getByRole('button', { name: `Remove ${file.name}` })
      .click()
      .catch(() => undefined);
    throw new TransferFailed(status, seconds);
  }
  return seconds;
}

/** From My Files with the service-worker save path: timed from the click to the file on disk. */
export function encryptedDownload(h: Harness, file: TestFile, hash: boolean): Promise<number> {
  return downloadFromCard(h.page, file, hash, 'encrypted download');
}

/**
 * Clicks the file card's Download button (service-worker save path) and waits for the file on disk:
 * the seconds from the click, after checking its size (and SHA-256 when `hash`).
 */
export async function downloadFromCard(
  page: Page,
  file: TestFile,
  hash: boolean,
  what: string,
): Promise<number> {
  const button = fileCard(page, file.name).getByRole('button', { name: `Download ${file.name}` });
  await button.waitFor();
  const start = process.hrtime.bigint();
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: transferTimeoutMs(file.size) }),
    button.click(),
  ]);
  const path = await download.path();
  const seconds = elapsed(start);
  const { size } = await stat(path);
  if (size !== file.size) throw new Error(`${what}: ${size} bytes, expected ${file.size}`);
  if (hash && (await sha256OfFile(path)) !== file.sha256) throw new Error(`${what}: wrong bytes`);
  await download.delete();
  // The app's own end of the download (its button comes back).
  await button.waitFor({ timeout: 60_000 });
  return seconds;
}
