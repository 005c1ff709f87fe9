import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type BrowserContext, type Page, type Request } from '@playwright/test';
import { readyPerson } from '../helpers/accounts.js';
import { newPerson, type TestPerson } from '../helpers/auth.js';
import {
  e2eDataDir,
  fileCard,
  fileIdOfCard,
  filesUnder,
  snackbar,
  startUpload,
  writeTestFile,
  writeTextFile,
  type TestFile,
} from '../helpers/files.js';

/**
 * The File System Access save path (asked for with `coffer.saveMethod` = `fs-access`; `auto` takes
 * it where a Chromium has no service worker). Its picker is a native dialog no test can drive, so
 * the page's `showSaveFilePicker` is replaced by one that answers a file of the origin private file
 * system: the same FileSystemFileHandle the real picker gives, handed to the crypto worker, whose
 * `createWritable()` writes the file, so the app's own save code runs unchanged.
 */

const MIB = 1024 * 1024;
const OFFLINE = { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 };
const ONLINE = { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 };

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
    localStorage.setItem('coffer.saveMethod', 'fs-access');
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

test('uploads two files; a part whose connection is cut is sent again', async () => {
  await readyPerson(page, person);
  await expect(page).toHaveURL(/\/new$/);
  // The network drops as the first part of the big file goes out (DevTools' offline switch, as a
  // lost Wi-Fi would): the next part request the browser starts fails (a body already on its way
  // may still arrive). The network comes back as soon as a part has failed; the app sends it again.
  const cdp = await context.newCDPSession(page);
  const partRequests: string[] = [];
  const partNumber = (request: Request): string | null =>
    /\/api\/users\/uploads\/multipart\/[^/]+\/part\/(\d+)\?/.exec(request.url())?.[1] ?? null;
  const onRequest = (request: Request): void => {
    const n = partNumber(request);
    if (n === null) return;
    partRequests.push(`part ${n}`);
    if (partRequests.length === 1) void cdp.send('Network.emulateNetworkConditions', OFFLINE);
  };
  const onFailed = (request: Request): void => {
    const n = partNumber(request);
    if (n === null) return;
    partRequests.push(`part ${n} failed: ${request.failure()?.errorText ?? ''}`);
    void cdp.send('Network.emulateNetworkConditions', ONLINE);
  };
  page.on('request', onRequest);
  page.on('requestfailed', onFailed);
  await startUpload(page, [small, big]);
  // Successful items leave the list; only then may the page be left without a confirmation.
  await expect(page.getByRole('listitem', { name: small.name })).toBeHidden({ timeout: 60_000 });
  await expect(page.getByRole('listitem', { name: big.name })).toBeHidden({ timeout: 90_000 });
  page.off('request', onRequest);
  page.off('requestfailed', onFailed);
  // One part failed on the dropped network and was sent again: two parts, three requests.
  const failed = partRequests.filter((entry) => entry.includes('failed'));
  expect(failed).toHaveLength(1);
  expect(failed[0]).toMatch(/^part \d failed: net::ERR_INTERNET_DISCONNECTED$/);
  const retried = failed[0]?.slice(0, 'part n'.length) ?? '-';
  expect(partRequests.filter((entry) => entry === retried)).toHaveLength(2);
  expect(partRequests.filter((entry) => !entry.includes('failed'))).toHaveLength(3);
  await page.getByRole('link', { name: 'My Files' }).first().click();
  await expect(fileCard(page, big.name)).toBeVisible();
  await expect(fileCard(page, small.name)).toBeVisible();
});

test('saves a download through the File System Access API with identical bytes, resuming a cut connection', async () => {
  // The first answer ends early, in the middle of the second encrypted chunk (the request is sent
  // on asking for the first 97 MiB only, so the bytes still come from the server). The app asks
  // again from that chunk's first byte: 95 MiB of plaintext + 28 bytes of IV and tag before it.
  const download = '**/api/users/files/*/download';
  const ranges: (string | null)[] = [];
  await page.route(download, async (route) => {
    const headers = await route.request().allHeaders();
    ranges.push(headers.range ?? null);
    if (ranges.length === 1)
      await route.continue({ headers: { ...headers, range: `bytes=0-${97 * MIB - 1}` } });
    else await route.continue();
  });
  await fileCard(page, big.name)
    .getByRole('button', { name: `Download ${big.name}` })
    .click();
  await expect(snackbar(page, 'File downloaded successfully!')).toBeVisible({ timeout: 90_000 });
  await page.unroute(download);
  expect(ranges).toEqual([null, `bytes=${95 * MIB + 28}-`]);
  expect(await savedFileHash(big.name)).toBe(big.sha256);
});

test('a tampered file fails with a clear message and leaves no file behind', async () => {
  // The server lists sealed names as 'encrypted': My Files shows them decrypted.
  await page.goto('/myfiles');
  const fileId = await fileIdOfCard(page, small.name);
  expect(fileId).not.toBe('');
  // The fs blob store's manifest (objects/<key>.json) names the folder holding the bytes.
  const manifestPath = (await filesUnder(join(e2eDataDir(), 'blobs', 'objects'))).find((path) =>
    path.includes(fileId),
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
