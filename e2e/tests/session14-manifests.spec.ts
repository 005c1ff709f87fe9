import { randomUUID } from 'node:crypto';
import {
  DRIVE_NODE_ID,
  sealMetadata,
  signFileManifest,
  signNodeRecord,
  unlockPrivateKey,
  unlockSigningKey,
  unwrapDriveKey,
  unwrapNodeKey,
  wrapFileKeyForParent,
} from '@coffer/crypto';
import { expect, test, type Page } from '@playwright/test';
import { readyPerson } from '../helpers/accounts.js';
import { newPerson, unlockEncryption } from '../helpers/auth.js';
import { apiCall, e2eDataDir, fileCard, filesContaining } from '../helpers/files.js';

/**
 * Issue 31: session 14's migration sealed a file's name and placed it, but kept its version 1
 * manifest (the clear name) on the server and signed the node record over it; such files showed a
 * signature mismatch. At the owner's next unlock the browser checks and signs them again (version 2),
 * after which the server keeps no clear name and the file checks out.
 */

type Person = ReturnType<typeof newPerson>;

interface ActiveKey {
  keyId: string;
  encryptedPrivateKey: string;
  encryptedSigningKey: string;
  wrappedDriveKey: string;
}

/** Builds, in Node with the owner's own keys, the node and v1 manifest session 14's migration left. */
async function exposeSession14Node(page: Page, owner: Person): Promise<void> {
  await page.exposeFunction(
    'session14Node',
    async (input: { active: ActiveKey; encryptedFileKey: string; name: string }) => {
      const privateKey = await unlockPrivateKey(input.active.encryptedPrivateKey, owner.masterKey);
      const signingKey = await unlockSigningKey(input.active.encryptedSigningKey, owner.masterKey);
      const driveKey = await unwrapDriveKey(input.active.wrappedDriveKey, privateKey);
      const manifest = await signFileManifest(
        {
          ownerEmail: owner.email,
          ownerKeyId: input.active.keyId,
          ownerEncryptedFileKeyB64: input.encryptedFileKey,
          name: input.name,
          contentType: 'text/plain',
          size: 5,
        },
        signingKey,
      );
      const nodeId = randomUUID();
      const place = { parentNodeId: DRIVE_NODE_ID, nodeId };
      const wrappedKey = await wrapFileKeyForParent(input.encryptedFileKey, privateKey, driveKey, place);
      const fileKey = await unwrapNodeKey(wrappedKey, driveKey, place, 'file');
      const encryptedMetadata = await sealMetadata(fileKey, nodeId, {
        name: input.name,
        contentType: 'text/plain',
      });
      const nodeRecord = await signNodeRecord(
        {
          ownerEmail: owner.email,
          nodeId,
          parentNodeId: DRIVE_NODE_ID,
          kind: 'file',
          wrappedKeyB64: wrappedKey,
          encryptedMetadataB64: encryptedMetadata,
          manifestJson: manifest,
        },
        signingKey,
      );
      return {
        manifest,
        node: JSON.stringify({ nodeId, parentNodeId: null, wrappedKey, encryptedMetadata, nodeRecord }),
      };
    },
  );
}

/** Uploads a file as session 14's migration left it: a node, sealed name, the v1 manifest kept. */
async function uploadAsSession14Left(page: Page, name: string): Promise<string> {
  return page.evaluate(async (fileName) => {
    const session14Node = (
      window as unknown as {
        session14Node: (input: object) => Promise<{ manifest: string; node: string }>;
      }
    ).session14Node;
    const key = Object.keys(localStorage).find((k) => k.startsWith('oidc.user:')) ?? '';
    const token = (JSON.parse(localStorage.getItem(key) ?? '{}') as { access_token?: string }).access_token;
    const auth = { Authorization: `Bearer ${token ?? ''}` };
    const active = (await (await fetch('/api/users/keys/active', { headers: auth })).json()) as {
      keyId: string;
      publicKey: string;
    };
    const spki = Uint8Array.from(atob(active.publicKey), (c) => c.charCodeAt(0));
    const rsa = await crypto.subtle.importKey('spki', spki, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, [
      'wrapKey',
    ]);
    const fileKey = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt']);
    const wrapped = btoa(
      String.fromCharCode(
        ...new Uint8Array(await crypto.subtle.wrapKey('raw', fileKey, rsa, { name: 'RSA-OAEP' })),
      ),
    );
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const aad = new Uint8Array([...new TextEncoder().encode('coffer-v1'), 0, 0, 0, 0, 1]);
    const sealed = await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: aad },
      fileKey,
      new TextEncoder().encode('hello'),
    );
    const { manifest, node } = await session14Node({ active, encryptedFileKey: wrapped, name: fileName });
    const form = new FormData();
    form.append('name', 'encrypted');
    form.append('contentType', 'application/octet-stream');
    form.append('size', '5');
    form.append('isEncrypted', 'true');
    form.append(
      'encryptionInfo',
      JSON.stringify({ version: active.keyId, algorithm: 'AES-GCM', iv: '', encryptedFileKey: wrapped }),
    );
    form.append('manifest', manifest);
    form.append('node', node);
    form.append('file', new Blob([iv, sealed]), 'encrypted');
    const response = await fetch('/api/users/uploads/direct', { method: 'POST', headers: auth, body: form });
    if (!response.ok) throw new Error(`upload refused: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { fileId: string }).fileId;
  }, name);
}

test('a file session 14 migrated with its version 1 manifest is signed again at unlock and checks out', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const owner = newPerson('s14');
  await readyPerson(page, owner);
  await exposeSession14Node(page, owner);
  const name = `zz-s14-${randomUUID().slice(0, 8)}.txt`;
  const fileId = await uploadAsSession14Left(page, name);
  const listed = async () => {
    const { body } = await apiCall(page, 'GET', '/users/files');
    return (body as { files: { fileId: string; clearManifest?: boolean }[] }).files.find(
      (file) => file.fileId === fileId,
    );
  };
  // The server holds the clear name in the manifest and marks the file.
  expect((await listed())?.clearManifest).toBe(true);
  const before = await apiCall(page, 'GET', `/users/files/${fileId}`);
  expect((before.body as { manifest?: string }).manifest).toContain(name);

  // The owner's next unlock signs it again.
  await page.evaluate(() => {
    sessionStorage.clear();
  });
  await page.goto('/myfiles');
  await unlockEncryption(page, owner.masterKey);
  await page.goto('/myfiles');
  await expect(fileCard(page, name)).toBeVisible();
  await expect.poll(async () => (await listed())?.clearManifest ?? false, { timeout: 60_000 }).toBe(false);
  const after = await apiCall(page, 'GET', `/users/files/${fileId}`);
  const manifest = (after.body as { manifest?: string }).manifest ?? '';
  expect(JSON.parse(manifest)).toMatchObject({ v: 2, type: 'file-manifest' });
  expect(manifest).not.toContain(name);

  // No mismatch any more: the card warns of nothing and its download is offered.
  await page.reload();
  const card = fileCard(page, name);
  await expect(card).toBeVisible();
  await expect(card.getByText(/Changed after|Not as you signed it/)).toHaveCount(0);
  await expect(page.getByRole('button', { name: `Download ${name}` })).toBeEnabled();
  await expect.poll(() => filesContaining(e2eDataDir(), name), { timeout: 30_000 }).toEqual([]);
});
