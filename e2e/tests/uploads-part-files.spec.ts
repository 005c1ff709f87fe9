import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { readyPerson } from '../helpers/accounts.js';
import { newPerson } from '../helpers/auth.js';
import { snackbar, startUpload, writeTestFile, type TestFile } from '../helpers/files.js';

/**
 * The crypto worker keeps each encrypted upload part in a file of the origin private file system
 * until it is sent (`packages/web/src/lib/crypto-worker/part-files.ts`), in a folder of its own
 * that it holds a Web Lock for: the part files go when their parts have been sent, and a worker
 * that starts removes the folders of workers that died with parts in them.
 */

const MIB = 1024 * 1024;
const CHUNK = 95 * MIB;
const ROOT = 'coffer-upload-parts';

let dir: string;
let file: TestFile;

test.beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coffer-e2e-parts-'));
  // Above the 100 MB direct threshold: two parts, the second 10 MiB.
  file = await writeTestFile(
    dir,
    'parts-film.bin',
    CHUNK + 10 * MIB,
    `COFFER-PARTS-${Date.now().toString(36)}`,
  );
});

test.afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The part folders and, in each, its files and their sizes, as the page sees them. */
function partFolders(page: Page): Promise<Record<string, Record<string, number>>> {
  return page.evaluate(async (root) => {
    type Listable = FileSystemDirectoryHandle & {
      entries(): AsyncIterable<[string, FileSystemHandle]>;
    };
    const opfs = (await navigator.storage.getDirectory()) as Listable;
    const parts = (await opfs.getDirectoryHandle(root, { create: true })) as Listable;
    const folders: Record<string, Record<string, number>> = {};
    for await (const [name, folder] of parts.entries()) {
      if (folder.kind !== 'directory') continue;
      const files: Record<string, number> = {};
      for await (const [fileName, handle] of (folder as Listable).entries()) {
        if (handle.kind === 'file') files[fileName] = (await (handle as FileSystemFileHandle).getFile()).size;
      }
      folders[name] = files;
    }
    return folders;
  }, ROOT);
}

test('upload parts wait on disk, are removed once sent, and a dead worker’s are swept', async ({ page }) => {
  await readyPerson(page, newPerson('parts'));
  // What a crypto worker that died mid-upload leaves: its folder, no one holding its lock; and the
  // folder of one that lives (in another tab, say), its lock held.
  await page.evaluate(async (root) => {
    const opfs = await navigator.storage.getDirectory();
    const parts = await opfs.getDirectoryHandle(root, { create: true });
    await new Promise<void>((granted) => {
      void navigator.locks.request(`${root}/worker-alive`, () => {
        granted();
        return new Promise<void>(() => undefined);
      });
    });
    for (const worker of ['worker-dead', 'worker-alive']) {
      const folder = await parts.getDirectoryHandle(worker, { create: true });
      const writable = await (await folder.getFileHandle('part-7', { create: true })).createWritable();
      await writable.write(new Uint8Array(1024));
      await writable.close();
    }
  }, ROOT);
  expect(Object.keys(await partFolders(page)).sort()).toEqual(['worker-alive', 'worker-dead']);

  // Part 2 is held on its way, so what the worker keeps meanwhile can be looked at.
  let partTwoSent: () => void = () => undefined;
  const partTwoOnItsWay = new Promise<void>((resolve) => {
    partTwoSent = resolve;
  });
  let releasePartTwo: () => void = () => undefined;
  const partTwoReleased = new Promise<void>((resolve) => {
    releasePartTwo = resolve;
  });
  await page.route(/\/part\/2\?/, async (route) => {
    partTwoSent();
    await partTwoReleased;
    await route.continue();
  });
  await startUpload(page, [file]);
  await partTwoOnItsWay;

  const { 'worker-alive': alive, ...during } = await partFolders(page);
  // The dead worker's folder is gone, the other live one's kept; the crypto worker's holds part 2
  // only (part 1 was sent and removed).
  expect(alive).toEqual({ 'part-7': 1024 });
  expect(Object.keys(during)).toHaveLength(1);
  const [live] = Object.keys(during);
  expect(live).toMatch(/^worker-/);
  expect(Object.values(during[live ?? ''] ?? {})).toEqual([10 * MIB + 28]);

  releasePartTwo();
  await expect(snackbar(page, 'File uploaded successfully!')).toBeVisible({ timeout: 120_000 });
  await page.unroute(/\/part\/2\?/);
  await expect
    .poll(() => partFolders(page))
    .toEqual({ 'worker-alive': { 'part-7': 1024 }, [live ?? '']: {} });
});
