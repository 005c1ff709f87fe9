import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { readyPerson } from '../helpers/accounts.js';
import { browserSessionState, newPerson, signIn } from '../helpers/auth.js';
import {
  apiCall,
  downloadAndHash,
  fileCard,
  fileIdOfCard,
  forceServiceWorkerSave,
  snackbar,
  startUpload,
  writeTestFile,
} from '../helpers/files.js';

/**
 * Issue 29 item 6, the spec's last points in Chromium against the real server: one click from
 * Logout to /landing (or /login from /unlock); the download card's 'Starting download...' with its
 * bar; the spec's `encryptionInfo` shape accepted by both upload calls. (The footer's company link:
 * landing.spec.ts.)
 */

let dir: string;

test.beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coffer-e2e-last-points-'));
});

test.afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('one click on Logout ends on /landing signed out; from /unlock on /login', async ({ page }) => {
  const person = newPerson('oneclick');
  await readyPerson(page, person);

  // One click, nothing else: the provider asks no second question for the app's own Logout.
  await page.getByLabel('Sidebar').getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/landing$/);
  expect((await browserSessionState(page)).local).toEqual([]);
  // Signed out for real: a reload stays signed out, and the provider asks for the password again.
  await page.reload();
  await expect(page).toHaveURL(/\/landing$/);
  await page.goto('/myfiles');
  await expect(page).toHaveURL(/\/landing$/);
  await page
    .getByRole('link', { name: /Log in/ })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: 'Sign in to Coffer' })).toBeVisible();

  // From the unlock screen (signed in, keys locked): one click ends on /login.
  await signIn(page, person);
  await expect(page.getByRole('heading', { level: 1, name: 'Unlock Encryption' })).toBeVisible();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'You have been logged out' })).toBeVisible();
  await page.reload();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/new');
  await expect(page).toHaveURL(/\/landing$/);
});

/** My files on the server, by name. */
async function myFiles(page: Page): Promise<{ fileId: string; name: string }[]> {
  const { status, body } = await apiCall(page, 'GET', '/users/files');
  expect(status).toBe(200);
  return (body as { files: { fileId: string; name: string }[] }).files;
}

test("the download card shows 'Starting download...' with its bar while the metadata is held back", async ({
  page,
}) => {
  await forceServiceWorkerSave(page);
  const person = newPerson('startdl');
  await readyPerson(page, person);
  const file = await writeTestFile(dir, 'held-back.bin', 300_000, 'HELD-BACK');
  await startUpload(page, [file]);
  await expect(snackbar(page, 'File uploaded successfully!')).toBeVisible();
  await page.goto('/myfiles');
  const card = fileCard(page, file.name);
  await expect(card).toBeVisible();
  // The server lists sealed names as 'encrypted': the id comes from the card.
  const fileId = await fileIdOfCard(page, file.name);
  expect(fileId).not.toBe('');

  // The metadata call waits until the test lets it go.
  let release = (): void => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = false;
  const metadata = `**/api/users/files/${fileId}`;
  await page.route(metadata, async (route) => {
    if (route.request().method() === 'GET') {
      held = true;
      await released;
    }
    await route.continue();
  });

  const { sha256 } = await downloadAndHash(page, async () => {
    await card.getByRole('button', { name: `Download ${file.name}` }).click();
    await expect(card.getByText('Starting download...')).toBeVisible();
    await expect(card.getByRole('progressbar', { name: `Download of ${file.name}` })).toBeVisible();
    expect(held).toBe(true);
    release();
  });
  expect(sha256).toBe(file.sha256);
  await expect(snackbar(page, 'File downloaded successfully!')).toBeVisible();
  await page.unroute(metadata);
});

test("both upload calls accept the spec's encryptionInfo (version, algorithm, iv, encryptedFileKey)", async ({
  page,
}) => {
  const person = newPerson('specinfo');
  await readyPerson(page, person);
  const { body: active } = await apiCall(page, 'GET', '/users/keys/active');
  const key = active as { keyId: string; publicKey: string };

  // From the page, as another client of the API would: the file key wrapped with my public key,
  // and only the spec's four fields.
  const answers = await page.evaluate(
    async ({ keyId, publicKeyB64 }) => {
      const bytes = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const b64 = (data: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(data)));
      const publicKey = await crypto.subtle.importKey(
        'spki',
        bytes(publicKeyB64),
        { name: 'RSA-OAEP', hash: 'SHA-256' },
        false,
        ['encrypt'],
      );
      const fileKey = crypto.getRandomValues(new Uint8Array(32));
      const encryptionInfo = {
        version: keyId,
        algorithm: 'AES-GCM',
        iv: '',
        encryptedFileKey: b64(await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, publicKey, fileKey)),
      };
      const tokenKey = Object.keys(localStorage).find((k) => k.startsWith('oidc.user:')) ?? '';
      const { access_token: token } = JSON.parse(localStorage.getItem(tokenKey) ?? '{}') as {
        access_token: string;
      };
      const auth = { Authorization: `Bearer ${token}` };
      const size = 100;
      // One encrypted chunk: IV + ciphertext + tag (the server checks lengths, not content).
      const ciphertext = crypto.getRandomValues(new Uint8Array(size + 28));

      const form = new FormData();
      form.append('name', 'spec-direct.bin');
      form.append('contentType', 'application/octet-stream');
      form.append('size', String(size));
      form.append('isEncrypted', 'true');
      form.append('encryptionInfo', JSON.stringify(encryptionInfo));
      form.append('file', new Blob([ciphertext]));
      const direct = await fetch('/api/users/uploads/direct', { method: 'POST', headers: auth, body: form });

      const started = await fetch('/api/users/uploads/multipart', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'spec-multipart.bin',
          contentType: 'application/octet-stream',
          size,
          parts: 1,
          isEncrypted: true,
          encryptionInfo,
        }),
      });
      const upload = (await started.json()) as { uploadId: string; objectKey: string };
      const part = await fetch(
        `/api/users/uploads/multipart/${upload.uploadId}/part/1?objectKey=${encodeURIComponent(upload.objectKey)}`,
        { method: 'PUT', headers: { ...auth, 'content-type': 'application/octet-stream' }, body: ciphertext },
      );
      const { etag } = (await part.json()) as { etag: string };
      const completed = await fetch(`/api/users/uploads/multipart/${upload.uploadId}/complete`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ ...upload, parts: [{ partNumber: 1, etag }] }),
      });
      return {
        direct: direct.status,
        started: started.status,
        part: part.status,
        completed: completed.status,
      };
    },
    { keyId: key.keyId, publicKeyB64: key.publicKey },
  );
  expect(answers).toEqual({ direct: 201, started: 201, part: 200, completed: 201 });

  // Both files list, on the server and on My Files, stored as coffer-v1 with the one chunk size.
  const files = await myFiles(page);
  for (const name of ['spec-direct.bin', 'spec-multipart.bin']) {
    const stored = files.find((f) => f.name === name);
    expect(stored, name).toBeDefined();
    const { body } = await apiCall(page, 'GET', `/users/files/${stored?.fileId ?? ''}`);
    expect((body as { encryptionInfo: unknown }).encryptionInfo).toMatchObject({
      version: key.keyId,
      format: 'coffer-v1',
      chunkSize: 99614720,
    });
  }
  await page.goto('/myfiles');
  await expect(fileCard(page, 'spec-direct.bin')).toBeVisible();
  await expect(fileCard(page, 'spec-multipart.bin')).toBeVisible();
});
