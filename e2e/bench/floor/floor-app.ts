/**
 * The app's side of the download floor benchmark (`download-floor-bench.ts`): one test file stored
 * through the built server twice (a plain upload: the target's denominator; an encrypted one: its
 * numerator), and the app's plain and encrypted downloads of it.
 */
import type { ChildProcess } from 'node:child_process';
import { link, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { encryptedSizeFor } from '@coffer/contracts';
import type { Locator, Page } from 'playwright-core';
import { fileCard, writeTestFile, type TestFile } from '../../helpers/files.js';
import { encryptedUpload } from '../driver/encrypted-transfers.js';
import { accessSessionInPage, plainUpload } from '../driver/plain-transfers.js';
import type { FloorPages } from './floor-browser.js';
import { save, type Check } from './floor-save.js';

/** The app's server and, per size, the file stored in it twice (plainly and encrypted). */
export interface App {
  readonly base: string;
  readonly child: ChildProcess;
  /** Per size: the plain upload's stored file id, and the file uploaded encrypted. */
  readonly stored: Map<number, { readonly plainId: string; readonly file: TestFile }>;
  readonly downloads: string;
}

/**
 * Stores `size` bytes through the app twice, from one test file: a plain upload (no encryption, the
 * target's denominator) and an encrypted one (under another name: the card is found by name, and the
 * plain upload's is "plain-" + the file's).
 */
export async function storeInApp(app: App, page: Page, dir: string, size: number): Promise<void> {
  await page.bringToFront();
  const plain = await writeTestFile(dir, `floor-${String(size)}.bin`, size, 'FLOOR');
  const file: TestFile = {
    ...plain,
    name: `sealed-${String(size)}.bin`,
    path: join(dir, `sealed-${String(size)}.bin`),
  };
  await link(plain.path, file.path);
  try {
    const { fileId } = await plainUpload({ page }, plain);
    await encryptedUpload({ page }, file);
    await page.getByRole('link', { name: 'My Files' }).first().click();
    await fileCard(page, file.name).waitFor();
    app.stored.set(size, { plainId: fileId, file });
  } finally {
    await rm(plain.path, { force: true });
    await rm(file.path, { force: true });
  }
}

/** The file's Download button on My Files. */
export const downloadButton = (page: Page, name: string): Locator =>
  fileCard(page, name).getByRole('button', { name: `Download ${name}` });

/**
 * The app's encrypted download of what was stored for `size`, from My Files: timed from the click
 * to the browser calling it complete; the check sizes it, deletes it and waits for the app's own end
 * (its Download button comes back once the service worker sent its result).
 */
export async function appEncrypted(app: App, page: Page, size: number): Promise<Check> {
  const { name } = storedIn(app, size).file;
  const button = downloadButton(page, name);
  await button.waitFor();
  const saved = await save(page, () => button.click(), 'app-encrypted', size);
  return async () => {
    await saved();
    await button.waitFor({ timeout: 60_000 });
  };
}

/**
 * Before the app's plain download (outside the clock): the save page sends the app's current access
 * token. One that expires within 90 s is first renewed by the app (its tab in front: a background
 * tab's timers, which renew it, run late).
 */
export async function sendBearer(pages: FloorPages): Promise<void> {
  const session = (): Promise<{ token: string; expiresAt: number }> =>
    pages.app.evaluate(accessSessionInPage);
  let current = await session();
  if (current.expiresAt - Date.now() < 90_000) {
    await pages.app.bringToFront();
    const old = current.token;
    const deadline = Date.now() + 120_000;
    while (current.token === old) {
      if (Date.now() > deadline) throw new Error('the app did not renew its access token within 120 s');
      await new Promise((resolve) => setTimeout(resolve, 500));
      current = await session();
    }
  }
  await pages.save.setExtraHTTPHeaders({ Authorization: `Bearer ${current.token}` });
}

/** The app's plain download of the file stored for `size` (the bearer header already set). */
export function appPlain(app: App, pages: FloorPages, size: number): Promise<Check> {
  const href = `/api/users/files/${encodeURIComponent(storedIn(app, size).plainId)}/download`;
  const start = (): Promise<void> =>
    pages.save.evaluate((url) => {
      location.href = url;
    }, href);
  // What the plain upload stored: each 95 MiB slice with the 28 bytes an encrypted chunk adds.
  return save(pages.save, start, href, encryptedSizeFor(size));
}

export function storedIn(app: App, size: number): { readonly plainId: string; readonly file: TestFile } {
  const stored = app.stored.get(size);
  if (stored === undefined) throw new Error(`nothing of ${String(size)} bytes is stored in the app`);
  return stored;
}
