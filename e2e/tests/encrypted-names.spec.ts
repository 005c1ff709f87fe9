import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signFileManifest, unlockSigningKey } from '@coffer/crypto';
import { expect, test, type Page } from '@playwright/test';
import { readyPerson } from '../helpers/accounts.js';
import { newPerson, unlockEncryption } from '../helpers/auth.js';
import {
  apiCall,
  downloadAndHash,
  e2eDataDir,
  fileCard,
  filesContaining,
  forceServiceWorkerSave,
  snackbar,
  startUpload,
  writeTextFile,
} from '../helpers/files.js';

/**
 * Issue 31, encrypted metadata end to end: a file uploaded through the app reaches the server as
 * `encrypted`, My Files shows, searches and downloads it under its own name, and the server's
 * database, log and blob folder hold no trace of that name; a file from before (a clear name,
 * uploaded through the API as older clients did) is sealed by its owner's browser after an unlock.
 */

let dir: string;
test.beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coffer-e2e-names-'));
});
test.afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface ListedFile {
  fileId: string;
  name: string;
  nodeId?: string;
}

async function listedFiles(page: Page): Promise<ListedFile[]> {
  const { status, body } = await apiCall(page, 'GET', '/users/files');
  expect(status).toBe(200);
  return (body as { files: ListedFile[] }).files;
}

/**
 * Lets the page sign a file manifest as a client from before sealed names did (version 1, the clear
 * name in it) with the person's own signing key, opened here from their key record.
 */
async function exposeOldManifestSigner(
  page: Page,
  person: { email: string; masterKey: string },
): Promise<void> {
  await page.exposeFunction(
    'signOldManifest',
    async (fields: { encryptedSigningKey: string; keyId: string; wrappedKey: string; name: string }) =>
      signFileManifest(
        {
          ownerEmail: person.email,
          ownerKeyId: fields.keyId,
          ownerEncryptedFileKeyB64: fields.wrappedKey,
          name: fields.name,
          contentType: 'text/plain',
          size: 5,
        },
        await unlockSigningKey(fields.encryptedSigningKey, person.masterKey),
      ),
  );
}

/**
 * What an older client did: a direct upload with the clear name, the file key RSA-wrapped to the
 * owner's public key, no node, and (after issue 13) the owner's version 1 manifest naming the file
 * in clear (`exposeOldManifestSigner` first). The content is 5 random bytes sealed as one chunk.
 */
async function uploadWithClearName(page: Page, name: string): Promise<string> {
  return page.evaluate(async (fileName) => {
    const key = Object.keys(localStorage).find((k) => k.startsWith('oidc.user:')) ?? '';
    const token = (JSON.parse(localStorage.getItem(key) ?? '{}') as { access_token?: string }).access_token;
    const auth = { Authorization: `Bearer ${token ?? ''}` };
    const active = (await (await fetch('/api/users/keys/active', { headers: auth })).json()) as {
      keyId: string;
      publicKey: string;
      encryptedSigningKey?: string;
    };
    const spki = Uint8Array.from(atob(active.publicKey), (c) => c.charCodeAt(0));
    const rsa = await crypto.subtle.importKey('spki', spki, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, [
      'wrapKey',
    ]);
    const fileKey = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt']);
    const wrapped = new Uint8Array(await crypto.subtle.wrapKey('raw', fileKey, rsa, { name: 'RSA-OAEP' }));
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const aad = new Uint8Array([...new TextEncoder().encode('coffer-v1'), 0, 0, 0, 0, 1]);
    const sealed = await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: aad },
      fileKey,
      crypto.getRandomValues(new Uint8Array(5)),
    );
    const form = new FormData();
    form.append('name', fileName);
    form.append('contentType', 'text/plain');
    form.append('size', '5');
    form.append('isEncrypted', 'true');
    form.append(
      'encryptionInfo',
      JSON.stringify({
        version: active.keyId,
        algorithm: 'AES-GCM',
        iv: '',
        encryptedFileKey: btoa(String.fromCharCode(...wrapped)),
      }),
    );
    const signOldManifest = (window as unknown as { signOldManifest?: (fields: object) => Promise<string> })
      .signOldManifest;
    if (signOldManifest !== undefined && active.encryptedSigningKey !== undefined) {
      const manifest = await signOldManifest({
        encryptedSigningKey: active.encryptedSigningKey,
        keyId: active.keyId,
        wrappedKey: btoa(String.fromCharCode(...wrapped)),
        name: fileName,
      });
      form.append('manifest', manifest);
    }
    form.append('file', new Blob([iv, sealed]), fileName);
    const response = await fetch('/api/users/uploads/direct', { method: 'POST', headers: auth, body: form });
    if (!response.ok) throw new Error(`upload refused: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { fileId: string }).fileId;
  }, name);
}

test('file names are sealed: listed, searched and downloaded by name; the server keeps none', async ({
  page,
}) => {
  const person = newPerson('names');
  await forceServiceWorkerSave(page);
  await readyPerson(page, person);

  const marker = `zz-marker-${randomUUID().slice(0, 8)}`;
  const note = await writeTextFile(dir, `${marker}.txt`, `${marker}-content`);
  await startUpload(page, [note]);
  await expect(snackbar(page, 'File uploaded successfully!')).toBeVisible();

  // The server holds the file as 'encrypted', with a node.
  const [stored] = await listedFiles(page);
  expect(stored?.name).toBe('encrypted');
  expect(stored?.nodeId).toMatch(/^[0-9a-f-]{36}$/);

  // My Files shows the decrypted name and finds it by search.
  await page.getByRole('link', { name: 'My Files' }).first().click();
  await expect(fileCard(page, note.name)).toBeVisible();
  await page.getByRole('textbox', { name: 'Search files' }).fill(marker.toUpperCase());
  await expect(page.getByRole('article')).toHaveCount(1);
  await expect(fileCard(page, note.name)).toBeVisible();

  const { sha256, download } = await downloadAndHash(page, () =>
    page.getByRole('button', { name: `Download ${note.name}` }).click(),
  );
  expect(sha256).toBe(note.sha256);
  expect(download.suggestedFilename()).toBe(note.name);

  // Neither the database (with its journal), nor the server's log, nor the blobs hold the name.
  expect(await filesContaining(e2eDataDir(), marker)).toEqual([]);
});

test('a file from before sealed names gets an encrypted name after its owner unlocks again', async ({
  page,
}) => {
  const person = newPerson('names-old');
  await readyPerson(page, person);
  await exposeOldManifestSigner(page, person);
  const oldName = `zz-old-${randomUUID().slice(0, 8)}.txt`;
  const fileId = await uploadWithClearName(page, oldName);
  expect((await listedFiles(page)).find((file) => file.fileId === fileId)?.name).toBe(oldName);
  // Its signed manifest names it in clear, as every file signed before sealed names does.
  const before = await apiCall(page, 'GET', `/users/files/${fileId}`);
  expect((before.body as { manifest?: string }).manifest).toContain(oldName);

  // A new unlock (this tab forgets its unlocked keys, as a new session would).
  await page.evaluate(() => {
    sessionStorage.clear();
  });
  await page.goto('/myfiles');
  await unlockEncryption(page, person.masterKey);
  await page.goto('/myfiles');
  await expect(fileCard(page, oldName)).toBeVisible();

  // The migration runs in the background: wait for the server's answer to change.
  await expect
    .poll(async () => (await listedFiles(page)).find((file) => file.fileId === fileId)?.name, {
      timeout: 60_000,
    })
    .toBe('encrypted');
  await page.reload();
  await expect(fileCard(page, oldName)).toBeVisible();

  // Its manifest was signed again (version 2, the sealed name's hash) and still checks out: the
  // card offers the download, which a manifest that does not match would refuse.
  const after = await apiCall(page, 'GET', `/users/files/${fileId}`);
  const manifest = (after.body as { manifest?: string }).manifest ?? '';
  expect(JSON.parse(manifest)).toMatchObject({ v: 2, type: 'file-manifest' });
  expect(manifest).not.toContain(oldName);
  await expect(page.getByRole('button', { name: `Download ${oldName}` })).toBeEnabled();
  // Nothing the server keeps names the file any more: not the file or upload rows, nor the manifest
  // (the database file and its write-ahead log, which the server empties after a node change, the log,
  // the blobs).
  await expect.poll(() => filesContaining(e2eDataDir(), oldName), { timeout: 30_000 }).toEqual([]);
});
