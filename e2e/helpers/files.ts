import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, type Download, type Page } from '@playwright/test';

/** A file written for a test, with the hash of its bytes. */
export interface TestFile {
  readonly path: string;
  readonly name: string;
  readonly size: number;
  readonly sha256: string;
}

/** SHA-256 (hex) of a file on disk, streamed. */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const WRITE_BLOCK = 4 * 1024 * 1024;

/**
 * Writes `size` pseudo-random bytes to `dir/name` with `marker` at the start, in the middle and at
 * the end, so a plaintext leak anywhere in the stored object would show. Written in blocks: a
 * 100 MiB+ file never sits in memory whole.
 */
export async function writeTestFile(
  dir: string,
  name: string,
  size: number,
  marker: string,
): Promise<TestFile> {
  const path = join(dir, name);
  const markerBytes = Buffer.from(marker, 'utf8');
  const positions = [0, Math.floor(size / 2), size - markerBytes.length].filter((p) => p >= 0);
  const hash = createHash('sha256');
  const handle = await open(path, 'w');
  try {
    for (let offset = 0; offset < size; offset += WRITE_BLOCK) {
      const block = randomBytes(Math.min(WRITE_BLOCK, size - offset));
      for (const position of positions) {
        // Copy the part of the marker that falls into this block.
        for (let i = 0; i < markerBytes.length; i++) {
          const at = position + i - offset;
          if (at >= 0 && at < block.length) block[at] = markerBytes[i] ?? 0;
        }
      }
      hash.update(block);
      await handle.write(block);
    }
  } finally {
    await handle.close();
  }
  return { path, name, size, sha256: hash.digest('hex') };
}

/** A small text file containing the marker. */
export async function writeTextFile(dir: string, name: string, marker: string): Promise<TestFile> {
  const text = `Coffer browser test\n${marker}\n${'The quick brown fox jumps over the lazy dog.\n'.repeat(200)}${marker}\n`;
  const bytes = Buffer.from(text, 'utf8');
  const path = join(dir, name);
  const handle = await open(path, 'w');
  try {
    await handle.write(bytes);
  } finally {
    await handle.close();
  }
  return { path, name, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/**
 * Makes every download of this page use the app's service worker (a native save dialog cannot be
 * driven by a test), so Playwright captures it as a `download` event.
 */
export async function forceServiceWorkerSave(page: Page): Promise<void> {
  await page.addInitScript(() => {
    localStorage.setItem('coffer.saveMethod', 'service-worker');
  });
}

/** A snackbar with this text (Mantine notifications). */
export function snackbar(page: Page, text: string) {
  return page.locator('.mantine-Notification-root').filter({ hasText: text }).first();
}

/** The card of a file on My Files, Shared With Me. */
export function fileCard(page: Page, title: string) {
  return page.getByRole('article', { name: title });
}

/**
 * A file's id, read from its card: the server lists sealed names as `encrypted` (issue 31), so only
 * the page, which decrypts them, can tell files apart by name.
 */
export async function fileIdOfCard(page: Page, title: string): Promise<string> {
  const card = fileCard(page, title);
  await expect(card).toBeVisible();
  return (await card.getAttribute('data-file-id')) ?? '';
}

/** On /new: adds files to the list and presses Upload Files. */
export async function startUpload(page: Page, files: readonly TestFile[]): Promise<void> {
  await expect(page.getByText('Drop files here or click to upload')).toBeVisible();
  const input = page.locator('input[type="file"]');
  // Cleared first: choosing the same file again would not fire a change (the app's own click clears it too).
  await input.setInputFiles([]);
  await input.setInputFiles(files.map((file) => file.path));
  for (const file of files) await expect(page.getByRole('listitem', { name: file.name })).toBeVisible();
  await page.getByRole('button', { name: 'Upload Files' }).click();
}

/** Clicks a download button and returns the saved file's SHA-256 once the browser has it. */
export async function downloadAndHash(
  page: Page,
  click: () => Promise<void>,
  timeout = 120_000,
): Promise<{ sha256: string; download: Download }> {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout }), click()]);
  const path = await download.path();
  return { sha256: await sha256OfFile(path), download };
}

/** A JSON call of the API with the access token the page holds. */
export async function apiCall(
  page: Page,
  method: string,
  path: string,
): Promise<{ status: number; body: unknown }> {
  return page.evaluate(
    async ({ method, url }) => {
      const key = Object.keys(localStorage).find((k) => k.startsWith('oidc.user:')) ?? '';
      const user = JSON.parse(localStorage.getItem(key) ?? '{}') as { access_token?: string };
      const response = await fetch(url, {
        method,
        headers: { Authorization: `Bearer ${user.access_token ?? ''}` },
      });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        // Not JSON (a stream): keep the text.
      }
      return { status: response.status, body };
    },
    { method, url: `/api${path}` },
  );
}

/** The names of my files on the server. */
export async function serverFileNames(page: Page): Promise<string[]> {
  const { status, body } = await apiCall(page, 'GET', '/users/files');
  expect(status).toBe(200);
  return (body as { files: { name: string }[] }).files.map((file) => file.name);
}

/** The statuses of my recent uploads on the server. */
export async function serverUploadStatuses(page: Page): Promise<string[]> {
  const { status, body } = await apiCall(page, 'GET', '/users/uploads?limit=100');
  expect(status).toBe(200);
  return (body as { uploads: { status: string }[] }).uploads.map((upload) => upload.status);
}

/**
 * The fs blob store's open multipart uploads (`blobs/uploads/<id>/upload.json` names the object key,
 * `u/<owner>/<file>`) that belong to uploads of mine: other specs may be uploading at the same time.
 */
export async function myOpenMultipartUploads(page: Page): Promise<string[]> {
  const { status, body } = await apiCall(page, 'GET', '/users/uploads?limit=100');
  expect(status).toBe(200);
  const mine = new Set(
    (body as { uploads: { objectKey: string }[] }).uploads.map((upload) => upload.objectKey),
  );
  const root = join(e2eDataDir(), 'blobs', 'uploads');
  const open: string[] = [];
  for (const path of await filesUnder(root)) {
    if (!path.endsWith('upload.json')) continue;
    const meta = JSON.parse(await readFile(path, 'utf8').catch(() => '{}')) as { key?: unknown };
    if (typeof meta.key === 'string' && mine.has(meta.key)) open.push(path);
  }
  return open;
}

/** The server's data folder (set by e2e/playwright.config.ts for the server it starts). */
export function e2eDataDir(): string {
  const dir = process.env.COFFER_E2E_DATA_DIR;
  if (dir === undefined || dir === '')
    throw new Error('COFFER_E2E_DATA_DIR is not set (see e2e/playwright.config.ts)');
  return dir;
}

/** Every file under a folder (none when it does not exist). */
export async function filesUnder(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const nested = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? filesUnder(path) : Promise.resolve([path]);
    }),
  );
  return nested.flat();
}

/** Whether `error` is Node's "no such file or directory". */
function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}

/**
 * Whether the file at `path` contains `needle`, read through `buffer` (reused: a whole 100 MB blob
 * read into new memory took most of a loaded machine's 30 s poll); false when it went away after it
 * was listed (another spec's finished multipart upload removes its parts).
 */
async function fileIncludes(path: string, needle: Buffer, buffer: Buffer): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
  try {
    // The last needle.length - 1 bytes of each read are kept in front of the next one, so a marker
    // across two reads is found.
    const keep = needle.length - 1;
    let held = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, held, buffer.length - held, null);
      if (bytesRead === 0) return false;
      const filled = held + bytesRead;
      if (buffer.subarray(0, filled).includes(needle)) return true;
      held = Math.min(keep, filled);
      buffer.copyWithin(0, filled - held, filled);
    }
  } finally {
    await handle.close();
  }
}

/** Files under `dir` whose bytes contain `marker`; read one at a time, through one buffer. */
export async function filesContaining(dir: string, marker: string): Promise<string[]> {
  const needle = Buffer.from(marker, 'utf8');
  const buffer = Buffer.alloc(Math.max(1024 * 1024, needle.length * 2));
  const found: string[] = [];
  for (const path of await filesUnder(dir)) {
    if (await fileIncludes(path, needle, buffer)) found.push(path);
  }
  return found;
}

/** Total size of the files under a folder (those still there when they are looked at). */
export async function bytesUnder(dir: string): Promise<number> {
  let total = 0;
  for (const path of await filesUnder(dir)) {
    total += await stat(path).then(
      (info) => info.size,
      (error: unknown) => {
        if (isMissing(error)) return 0;
        throw error;
      },
    );
  }
  return total;
}
