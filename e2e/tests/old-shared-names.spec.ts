import { randomUUID } from 'node:crypto';
import { signFileManifest, signShareGrant, unlockSigningKey } from '@coffer/crypto';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { readyPerson } from '../helpers/accounts.js';
import { newPerson, unlockEncryption } from '../helpers/auth.js';
import { addContact } from '../helpers/contacts.js';
import { apiCall, e2eDataDir, fileCard, filesContaining } from '../helpers/files.js';

/**
 * Issue 31: a file uploaded and shared before sealed names (a clear name, the owner's version 1
 * manifest naming it, a grant over that manifest, as older clients sent them through the API) is
 * readable by its recipient before the owner unlocks again, and after the owner's browser migrates it
 * (version 2 manifest, the grant signed again, the name sealed) the recipient still opens it by its
 * name, while the server keeps the name nowhere.
 */

type Person = ReturnType<typeof newPerson>;

interface OldSigning {
  encryptedSigningKey: string;
  manifest?: { keyId: string; wrappedKey: string; name: string };
  grant?: {
    fileId: string;
    recipientEmail: string;
    recipientKeyId: string;
    recipientPublicKeyB64: string;
    encryptedFileKeyB64: string;
    manifestJson: string;
  };
}

/** Signs, with the owner's own signing key, what an older client signed: a v1 manifest, a grant. */
async function exposeOldSigner(page: Page, owner: Person): Promise<void> {
  await page.exposeFunction('signOld', async (what: OldSigning) => {
    const key = await unlockSigningKey(what.encryptedSigningKey, owner.masterKey);
    if (what.manifest !== undefined) {
      return signFileManifest(
        {
          ownerEmail: owner.email,
          ownerKeyId: what.manifest.keyId,
          ownerEncryptedFileKeyB64: what.manifest.wrappedKey,
          name: what.manifest.name,
          contentType: 'text/plain',
          size: 5,
        },
        key,
      );
    }
    if (what.grant === undefined) throw new Error('nothing to sign');
    return signShareGrant({ ...what.grant, ownerEmail: owner.email }, key);
  });
}

/**
 * Uploads a file with its clear name and version 1 manifest (POST /users/uploads/direct, no node)
 * and shares it with `recipientEmail` (POST /users/files/{id}/share, the file key RSA-wrapped to
 * their key, a grant over the old manifest), both as an older client did. Returns the file id.
 */
async function uploadAndShareTheOldWay(page: Page, name: string, recipientEmail: string): Promise<string> {
  return page.evaluate(
    async ({ fileName, recipient }) => {
      const signOld = (window as unknown as { signOld: (what: object) => Promise<string> }).signOld;
      const key = Object.keys(localStorage).find((k) => k.startsWith('oidc.user:')) ?? '';
      const token = (JSON.parse(localStorage.getItem(key) ?? '{}') as { access_token?: string }).access_token;
      const auth = { Authorization: `Bearer ${token ?? ''}` };
      const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
      const rsaOf = async (publicKeyB64: string) =>
        crypto.subtle.importKey(
          'spki',
          Uint8Array.from(atob(publicKeyB64), (c) => c.charCodeAt(0)),
          { name: 'RSA-OAEP', hash: 'SHA-256' },
          false,
          ['wrapKey'],
        );
      const active = (await (await fetch('/api/users/keys/active', { headers: auth })).json()) as {
        keyId: string;
        publicKey: string;
        encryptedSigningKey: string;
      };
      const fileKey = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt']);
      const wrapFor = async (publicKeyB64: string) =>
        b64(
          new Uint8Array(
            await crypto.subtle.wrapKey('raw', fileKey, await rsaOf(publicKeyB64), { name: 'RSA-OAEP' }),
          ),
        );
      const wrapped = await wrapFor(active.publicKey);
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const aad = new Uint8Array([...new TextEncoder().encode('coffer-v1'), 0, 0, 0, 0, 1]);
      const sealed = await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv, additionalData: aad },
        fileKey,
        new TextEncoder().encode('hello'),
      );
      const manifest = await signOld({
        encryptedSigningKey: active.encryptedSigningKey,
        manifest: { keyId: active.keyId, wrappedKey: wrapped, name: fileName },
      });
      const form = new FormData();
      form.append('name', fileName);
      form.append('contentType', 'text/plain');
      form.append('size', '5');
      form.append('isEncrypted', 'true');
      form.append(
        'encryptionInfo',
        JSON.stringify({ version: active.keyId, algorithm: 'AES-GCM', iv: '', encryptedFileKey: wrapped }),
      );
      form.append('manifest', manifest);
      form.append('file', new Blob([iv, sealed]), fileName);
      const upload = await fetch('/api/users/uploads/direct', { method: 'POST', headers: auth, body: form });
      if (!upload.ok) throw new Error(`upload refused: ${upload.status} ${await upload.text()}`);
      const { fileId } = (await upload.json()) as { fileId: string };

      const theirs = (await (
        await fetch(`/api/users/keys/public/${encodeURIComponent(recipient)}`, { headers: auth })
      ).json()) as { keyId: string; publicKey: string };
      const theirCopy = await wrapFor(theirs.publicKey);
      const shareGrant = await signOld({
        encryptedSigningKey: active.encryptedSigningKey,
        grant: {
          fileId,
          recipientEmail: recipient,
          recipientKeyId: theirs.keyId,
          recipientPublicKeyB64: theirs.publicKey,
          encryptedFileKeyB64: theirCopy,
          manifestJson: manifest,
        },
      });
      const share = await fetch(`/api/users/files/${fileId}/share`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          email: recipient,
          encryptedFileKey: theirCopy,
          keyVersion: theirs.keyId,
          shareGrant,
        }),
      });
      if (!share.ok) throw new Error(`share refused: ${share.status} ${await share.text()}`);
      return fileId;
    },
    { fileName: name, recipient: recipientEmail },
  );
}

/** The recipient opens the file from Shared With Me and downloads it under its name. */
async function recipientOpens(page: Page, name: string, owner: Person): Promise<void> {
  await page.goto('/sharedwithme');
  const card = fileCard(page, name);
  await expect(card).toBeVisible({ timeout: 30_000 });
  await expect(card.getByText(`From ${owner.email}`)).toBeVisible();
  await card.getByRole('link', { name }).click();
  const received = page.getByRole('article', { name });
  await expect(received).toBeVisible();
  await expect(received.getByText(/Changed after|Not signed by/)).toHaveCount(0);
  const downloading = page.waitForEvent('download');
  await received.getByRole('button', { name: 'Download' }).click();
  expect((await downloading).suggestedFilename()).toBe(name);
}

async function pageOf(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

test('a file shared before sealed names stays readable by its recipient, before and after the owner migrates it', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const owner = newPerson('old-share-a');
  const recipient = newPerson('old-share-b');
  const a = await pageOf(browser);
  const b = await pageOf(browser);
  await readyPerson(b, recipient);
  await readyPerson(a, owner);
  await addContact(a, recipient);
  await exposeOldSigner(a, owner);
  // Away from My Files, so the owner's browser does not migrate it yet.
  const oldName = `zz-old-shared-${randomUUID().slice(0, 8)}.txt`;
  const fileId = await uploadAndShareTheOldWay(a, oldName, recipient.email);
  const before = await apiCall(a, 'GET', `/users/files/${fileId}`);
  expect((before.body as { name: string; manifest?: string }).name).toBe(oldName);

  // Before the owner unlocks again: the recipient reads it by its clear name.
  await recipientOpens(b, oldName, owner);

  // The owner unlocks again; the migration seals the name and signs manifest and grant again.
  await a.evaluate(() => {
    sessionStorage.clear();
  });
  await a.goto('/myfiles');
  await unlockEncryption(a, owner.masterKey);
  await a.goto('/myfiles');
  await expect(fileCard(a, oldName)).toBeVisible();
  await expect
    .poll(
      async () => {
        const { body } = await apiCall(a, 'GET', `/users/files/${fileId}`);
        return (body as { name: string }).name;
      },
      { timeout: 60_000 },
    )
    .toBe('encrypted');

  // The recipient still opens it by its name (the version 2 manifest and sealed metadata, the grant
  // signed again), and the server holds the name nowhere.
  await recipientOpens(b, oldName, owner);
  await expect.poll(() => filesContaining(e2eDataDir(), oldName), { timeout: 30_000 }).toEqual([]);
});
