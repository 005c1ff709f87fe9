import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { newPerson, signUpReady, type TestPerson } from '../helpers/auth.js';
import {
  apiCall,
  e2eDataDir,
  fileCard,
  filesUnder,
  snackbar,
  startUpload,
  writeTestFile,
  writeTextFile,
  type TestFile,
} from '../helpers/files.js';

/**
 * The save path Chrome and Edge users get by default: the File System Access API. Its picker is a
 * native dialog no test can drive, so the page's `showSaveFilePicker` is replaced by one that
 * answers a file of the origin private file system: the same FileSystemFileHandle and
 * `createWritable()` the real picker gives, so the app's own save code runs unchanged.
 */

const MIB = 1024 * 1024;

test.describe.configure({ mode: 'serial' });

let dir: string;
let small: TestFile;
let big: TestFile;
let person: TestPerson;
let context: BrowserContext;
let page: Page;

/** SHA-256 (hex) of a file in the page's origin private file system, or null if there is none. */
function savedFileHash(name: string): Promise<string | null> {
  return page.evaluate(async (fileName) => {
    const root = await navigator.storage.getDirectory();
    let handle: FileSystemFileHandle;
    try {
      handle = await root.getFileHandle(fileName);
    } catch {
      return null;
    }
    const digest = await crypto.subtle.digest('SHA-256', await (await handle.getFile()).arrayBuffer());
    return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  }, name);
}

test.beforeAll(async ({ browser }) => {
  dir = await mkdtemp(join(tmpdir(), 'coffer-e2e-picker-'));
  small = await writeTextFile(dir, 'tax-return.txt', `PICKER-${Date.now().toString(36)}`);
  // Two encrypted chunks: the sink takes many 8 MiB slices.
  big = await writeTestFile(dir, 'holiday-video.bin', 101 * MIB, 'PICKER');
  person = newPerson('picker');
  context = await browser.newContext();
  page = await context.newPage();
  await page.addInitScript(() => {
    (window as unknown as { showSaveFilePicker: unknown }).showSaveFilePicker = async (options?: {
      suggestedName?: string;
    }) => {
      const root = await navigator.storage.getDirectory();
      return root.getFileHandle(options?.suggestedName ?? 'download', { create: true });
    };
  });
});

test.afterAll(async () => {
  await context.close();
  await rm(dir, { recursive: true, force: true });
});

test('uploads two files', async () => {
  test.setTimeout(120_000);
  await signUpReady(page, person);
  await expect(page).toHaveURL(/\/new$/);
  await startUpload(page, [small, big]);
  // Successful items leave the list; only then may the page be left without a confirmation.
  await expect(page.getByRole('listitem', { name: small.name })).toBeHidden({ timeout: 60_000 });
  await expect(page.getByRole('listitem', { name: big.name })).toBeHidden({ timeout: 90_000 });
  await page.getByRole('link', { name: 'My Files' }).first().click();
  await expect(fileCard(page, big.name)).toBeVisible();
  await expect(fileCard(page, small.name)).toBeVisible();
});

test('saves a download through the File System Access API with identical bytes', async () => {
  test.setTimeout(120_000);
  await fileCard(page, big.name)
    .getByRole('button', { name: `Download ${big.name}` })
    .click();
  await expect(snackbar(page, 'File downloaded successfully!')).toBeVisible({ timeout: 90_000 });
  expect(await savedFileHash(big.name)).toBe(big.sha256);
});

test('a tampered file fails with a clear message and leaves no file behind', async () => {
  const { body } = await apiCall(page, 'GET', '/users/files');
  const stored = (body as { files: { fileId: string; name: string }[] }).files.find(
    (f) => f.name === small.name,
  );
  expect(stored).toBeDefined();
  // The fs blob store's manifest (objects/<key>.json) names the folder holding the bytes.
  const manifestPath = (await filesUnder(join(e2eDataDir(), 'blobs', 'objects'))).find((path) =>
    path.includes(stored?.fileId ?? '-'),
  );
  expect(manifestPath).toBeDefined();
  const manifest = JSON.parse(await readFile(manifestPath ?? '', 'utf8')) as {
    data: string;
    parts: { name: string }[];
  };
  const dataPath = join(
    e2eDataDir(),
    'blobs',
    'data',
    ...manifest.data.split('/'),
    manifest.parts[0]?.name ?? '',
  );
  const bytes = await readFile(dataPath);
  // A byte of the ciphertext (after the 12-byte IV): the tag no longer verifies.
  bytes[20] = (bytes[20] ?? 0) ^ 0x01;
  await writeFile(dataPath, bytes);

  await fileCard(page, small.name)
    .getByRole('button', { name: `Download ${small.name}` })
    .click();
  await expect(
    snackbar(page, 'Download failed: The file is corrupted or was tampered with. Nothing was saved.'),
  ).toBeVisible({
    timeout: 30_000,
  });
  // The picker had created the file; the failed download removed it again.
  await expect.poll(() => savedFileHash(small.name)).toBeNull();
});
