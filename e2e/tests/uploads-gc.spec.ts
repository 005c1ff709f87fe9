import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { readyPerson } from '../helpers/accounts.js';
import { newPerson } from '../helpers/auth.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../helpers/browser.js';
import {
  downloadAndHash,
  fileCard,
  forceServiceWorkerSave,
  serverFileNames,
  snackbar,
  startUpload,
  writeTestFile,
  writeTextFile,
  type TestFile,
} from '../helpers/files.js';

/**
 * Transfers while the browser collects garbage all the time. Chromium does not keep a Blob's byte
 * stream alive while a BYOB read of it is pending: a collection during the crypto worker's read of
 * a file took the stream and the read never settled, so an upload hung at "Encrypting chunk 1 of
 * 1..." (seen when a small file was read beside a big one, whose chunk buffers make collections
 * likely). Here the crypto worker collects every few milliseconds while three files are read at
 * once, then one is downloaded the same way.
 */

const MIB = 1024 * 1024;
const MARKER = `COFFER-GC-MARKER-${Date.now().toString(36)}`;

// `gc()` in every page and worker of this file's browser.
test.use({
  launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, '--js-flags=--expose-gc'] },
});

let dir: string;
let files: TestFile[];

test.beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coffer-e2e-gc-'));
  files = [
    await writeTextFile(dir, 'gc-notes.txt', MARKER),
    // Single-chunk files (below the 100 MB multipart threshold) whose reads take a while.
    await writeTestFile(dir, 'gc-photos.bin', 48 * MIB, MARKER),
    await writeTestFile(dir, 'gc-scans.bin', 24 * MIB, MARKER),
  ];
});

test.afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * Runs `gc()` in the page's crypto worker, again and again, until `work` settles; answers how many
 * collections ran in the worker.
 */
async function collectingGarbage(page: Page, work: Promise<unknown>): Promise<number> {
  const state = { settled: false };
  const done = work.finally(() => {
    state.settled = true;
  });
  let collections = 0;
  while (!state.settled) {
    const worker = page.workers().find((candidate) => candidate.url().includes('crypto.worker'));
    if (worker === undefined) {
      await page.waitForTimeout(5);
      continue;
    }
    const collected = await worker
      .evaluate(() => {
        const { gc } = globalThis as { gc?: () => void };
        gc?.();
        return gc !== undefined;
      })
      // The worker may end between the lookup and the call.
      .catch(() => false);
    if (collected) collections++;
  }
  await done;
  return collections;
}

test('uploads and a download finish while the browser keeps collecting garbage', async ({ page }) => {
  await forceServiceWorkerSave(page);
  await readyPerson(page, newPerson('gc'));
  await startUpload(page, files);

  const uploaded = (async () => {
    for (const file of files) {
      await expect(page.getByRole('listitem', { name: file.name })).toBeHidden({ timeout: 120_000 });
    }
  })();
  // Many collections while the files were being read and encrypted: the test exercises what it claims.
  expect(await collectingGarbage(page, uploaded)).toBeGreaterThan(20);
  await expect(snackbar(page, '3 files uploaded successfully!')).toBeVisible();
  // The server keeps sealed names ('encrypted'); My Files shows the real ones.
  expect(await serverFileNames(page)).toEqual(files.map(() => 'encrypted'));
  await page.goto('/myfiles');
  for (const file of files) await expect(fileCard(page, file.name)).toBeVisible();

  const photos = files[1];
  if (photos === undefined) throw new Error('the test files were not written');
  await page.getByRole('link', { name: 'My Files' }).first().click();
  await expect(fileCard(page, photos.name)).toBeVisible();
  const downloaded = downloadAndHash(page, () =>
    page.getByRole('button', { name: `Download ${photos.name}` }).click(),
  );
  await collectingGarbage(page, downloaded);
  expect((await downloaded).sha256).toBe(photos.sha256);
});
