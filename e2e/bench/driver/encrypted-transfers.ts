import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { uploadMessages } from '@coffer/contracts';
import type { Download, Page } from 'playwright-core';
import { fileCard, sha256OfFile, snackbar, type TestFile } from '../../helpers/files.js';
import { elapsed } from '../bench-units.js';
import { readUploadClock, startUploadClock } from '../measure/upload-clock.js';
import { TransferFailed, transferTimeoutMs } from './measured-run.js';
import type { Harness } from './session.js';

/**
 * Through the New Upload screen: timed from the Upload Files click to the success snackbar.
 * @throws {TransferFailed} the row turned to failed (its status text is the message).
 */
export async function encryptedUpload(h: Pick<Harness, 'page'>, file: TestFile): Promise<number> {
  const { page } = h;
  await page.getByRole('link', { name: 'New Upload' }).first().click();
  await page.getByText('Drop files here or click to upload').waitFor();
  const input = page.locator('input[type="file"]:not([webkitdirectory])');
  await input.setInputFiles([]);
  await input.setInputFiles(file.path);
  const row = page.getByRole('listitem', { name: file.name });
  await row.waitFor();
  const done = snackbar(page, uploadMessages.success);
  await done.waitFor({ state: 'hidden', timeout: 30_000 });
  const failed = row.and(page.locator('[data-upload-phase="failed"]'));
  const timeout = transferTimeoutMs(file.size);
  await page.evaluate(startUploadClock, { button: 'Upload Files', doneText: uploadMessages.success });
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
    // Stops the page's clock (its observer would go on watching the next transfers).
    await page.evaluate(readUploadClock).catch(() => null);
    const status = await row.getByTestId('upload-status').innerText();
    // Clears the failed row, so the screen is as before.
    await page
      .getByRole('button', { name: `Remove ${file.name}` })
      .click()
      .catch(() => undefined);
    throw new TransferFailed(status, seconds);
  }
  const clock = await page.evaluate(readUploadClock);
  const clickAt = clock?.clickAt ?? null;
  const doneAt = clock?.doneAt ?? null;
  if (clock === null || clickAt === null || doneAt === null) {
    console.log(
      `  upload: the page's clock saw no click or no snackbar; timed by the driver (${seconds.toFixed(2)} s)`,
    );
    return seconds;
  }
  // When the row (`<size> · <status>`) first said bytes go out: chunk 1 was sealed, its part began to go out.
  const firstSent = clock.texts.find(([, text]) => text.endsWith(uploadMessages.encryptingAndUploading))?.[0];
  console.log(
    `  upload in the page: ${((doneAt - clickAt) / 1000).toFixed(2)} s from the click to the snackbar ` +
      `(the driver saw ${seconds.toFixed(2)} s)` +
      (firstSent === undefined
        ? ''
        : `; the first part began to go out after ${((firstSent - clickAt) / 1000).toFixed(2)} s`),
  );
  return (doneAt - clickAt) / 1000;
}

/** From My Files with the service-worker save path: timed from the click to the file on disk. */
export function encryptedDownload(h: Harness, file: TestFile, hash: boolean): Promise<number> {
  return downloadFromCard(h.page, file, hash, 'encrypted download', join(h.dir, 'downloads'));
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
  downloadsDir: string,
): Promise<number> {
  const button = fileCard(page, file.name).getByRole('button', { name: `Download ${file.name}` });
  await button.waitFor();
  const start = process.hrtime.bigint();
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: transferTimeoutMs(file.size) }),
    button.click(),
  ]);
  // The app's own end of the download: its Download button comes back once the worker sent its result.
  const appEnded = (): Promise<boolean> => button.isVisible().catch(() => false);
  const path = await completedOrStalled(download, downloadsDir, file.size, start, appEnded);
  const seconds = elapsed(start);
  const { size } = await stat(path);
  if (size !== file.size) throw new Error(`${what}: ${size} bytes, expected ${file.size}`);
  if (hash && (await sha256OfFile(path)) !== file.sha256) throw new Error(`${what}: wrong bytes`);
  await download.delete();
  // The app's own end of the download (its button comes back).
  await button.waitFor({ timeout: 60_000 });
  return seconds;
}

/** After every byte is on disk, how long the browser may take to call the download complete. */
const COMPLETION_GRACE_MS = 60_000;

/**
 * The finished download's path; or, when every byte of it has been on disk (a file of `size` bytes
 * in the browser's download folder) for {@link COMPLETION_GRACE_MS} without the browser calling it
 * complete (the app's stream never ended), a {@link TransferFailed} timed to the last byte on disk,
 * so one stalled download is a failed row instead of a benchmark that waits forever.
 */
async function completedOrStalled(
  download: Download,
  downloadsDir: string,
  size: number,
  start: bigint,
  /** Whether the app says the download ended (the service worker closed its stream and sent its result). */
  appEnded: () => Promise<boolean>,
): Promise<string> {
  const state = { done: false };
  const completed = download.path().finally(() => {
    state.done = true;
  });
  const stalled = (async (): Promise<never> => {
    let wholeAt: number | null = null;
    for (;;) {
      await new Promise((r) => setTimeout(r, 100));
      if (state.done) return new Promise<never>(() => undefined);
      const whole = await hasFileOfSize(downloadsDir, size);
      if (!whole) wholeAt = null;
      else wholeAt ??= elapsed(start);
      if (wholeAt !== null && elapsed(start) - wholeAt > COMPLETION_GRACE_MS / 1000) {
        // Frees the disk (a stalled 4 GiB file would stay); not awaited: a cancel of a download the
        // browser still counts as in progress did not settle (seen with Chromium 156).
        // Which side stopped: the app's (its stream never closed: no result, no button) or the browser's
        // (the stream closed and the app ended, but the browser did not complete the download).
        const ended = await appEnded();
        void download.cancel().catch(() => undefined);
        throw new TransferFailed(
          `every byte was on disk after ${wholeAt.toFixed(1)} s, but the browser did not see the download ` +
            `end within ${COMPLETION_GRACE_MS / 1000} s after that (${
              ended
                ? "the app's download HAD ended: its stream was closed, the browser did not complete it"
                : "the app's download had NOT ended: its stream was not closed"
            })`,
          wholeAt,
        );
      }
    }
  })();
  return Promise.race([completed, stalled]);
}

async function hasFileOfSize(dir: string, size: number): Promise<boolean> {
  for (const name of await readdir(dir).catch(() => [])) {
    const found = await stat(join(dir, name)).catch(() => null);
    if (found?.size === size) return true;
  }
  return false;
}
