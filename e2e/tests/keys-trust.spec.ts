import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { createKeyBinding, createUserKeys, MIN_PBKDF2_ITERATIONS } from '@coffer/crypto';
import { readyPerson } from '../helpers/accounts.js';
import { logoutFromSidebar, newPerson, signIn, unlockEncryption, type TestPerson } from '../helpers/auth.js';
import { addContact } from '../helpers/contacts.js';
import {
  apiCall,
  fileCard,
  fileIdOfCard,
  snackbar,
  startUpload,
  writeTextFile,
  type TestFile,
} from '../helpers/files.js';

/**
 * Keys you can check (issue 13) against a compromised server, played at the API boundary: the
 * server's answers to one browser are rewritten with `page.route`, the real server is untouched.
 * (a) the server swaps B's key after A pinned it; (b) the server injects a share into B's view;
 * (c) after A logs out and in again, the server replays an older copy of A's pins.
 */

test.describe.configure({ mode: 'serial' });

let dir: string;
let aContext: BrowserContext;
let bContext: BrowserContext;
let a: Page;
let b: Page;
let alice: TestPerson;
let bob: TestPerson;
let first: TestFile;
let second: TestFile;

test.beforeAll(async ({ browser }) => {
  dir = await mkdtemp(join(tmpdir(), 'coffer-keys-trust-'));
  first = await writeTextFile(dir, 'signed-first.txt', 'KEYS-TRUST-FIRST');
  second = await writeTextFile(dir, 'signed-second.txt', 'KEYS-TRUST-SECOND');
  alice = newPerson('alice');
  bob = newPerson('bob');
  aContext = await browser.newContext();
  bContext = await browser.newContext();
  a = await aContext.newPage();
  b = await bContext.newPage();
});

test.afterAll(async () => {
  await aContext.close();
  await bContext.close();
  await rm(dir, { recursive: true, force: true });
});

/** Another valid key record for B's address, as a compromised server would serve it. */
async function forgedKeyFor(email: string): Promise<Record<string, string>> {
  const keys = await createUserKeys('Forged-Master-Key-1!', { iterations: MIN_PBKDF2_ITERATIONS });
  const keyId = crypto.randomUUID();
  const keyBinding = await createKeyBinding(
    { email, keyId, publicKeyB64: keys.publicKeyB64, signingPublicKeyB64: keys.signingPublicKeyB64 },
    keys.signingPrivateKey,
  );
  return { publicKey: keys.publicKeyB64, keyId, signingPublicKey: keys.signingPublicKeyB64, keyBinding };
}

async function shareFromMyFiles(page: Page, file: TestFile, person: TestPerson): Promise<void> {
  await page.getByRole('link', { name: 'My Files' }).first().click();
  await page.getByRole('button', { name: `Share ${file.name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Share files' });
  await dialog.getByRole('checkbox', { name: person.name }).check();
  await dialog.getByRole('button', { name: 'Share', exact: true }).click();
}

async function screenshotCard(page: Page, name: string): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page
      .getByRole('article', { name: bob.name })
      .screenshot({ path: test.info().outputPath(`contact-card-${name}-${String(width)}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('A pins B, the server swaps B’s key: "Key changed", no sharing until A accepts', async () => {
  // A ceiling: two people, two uploads and four key checks on a shared 2-core machine.
  test.setTimeout(360_000);
  // Sign-up is not the subject here (auth-session and identity-verification type it in): the accounts
  // are made over HTTP, the keys by the app in each browser.
  await readyPerson(a, alice);
  await readyPerson(b, bob);

  await a.goto('/new');
  await startUpload(a, [first, second]);
  await expect(snackbar(a, '2 files uploaded successfully!')).toBeVisible();
  await a.goto('/myfiles');
  await expect(fileCard(a, first.name)).toBeVisible();
  await expect(fileCard(a, second.name)).toBeVisible();

  // First sight: pinned, not yet verified in person.
  await addContact(a, bob);
  const card = a.getByRole('article', { name: bob.name });
  await expect(card.locator('[data-key-state]')).toHaveText('Not verified in person');
  await screenshotCard(a, 'tofu');

  // Compared in person: verified.
  await card.getByRole('button', { name: 'Mark as verified' }).click();
  const verify = a.getByRole('dialog', { name: `Verify ${bob.name}` });
  await verify.getByRole('button', { name: 'They match: mark verified' }).click();
  await expect(card.locator('[data-key-state]')).toHaveText('Verified in person');
  await screenshotCard(a, 'verified');

  // A genuine share while the key is B's own (B checks it in the next test).
  await shareFromMyFiles(a, first, bob);
  await expect(snackbar(a, `${first.name} shared successfully with ${bob.name}`)).toBeVisible();
  await shareFromMyFiles(a, second, bob);
  await expect(snackbar(a, `${second.name} shared successfully with ${bob.name}`)).toBeVisible();

  // The server now answers A's lookups of B with a key it holds.
  const forged = await forgedKeyFor(bob.email);
  await a.route(`**/api/users/keys/public/${encodeURIComponent(bob.email)}`, (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(forged) }),
  );
  await a.goto('/contacts');
  await expect(card.locator('[data-key-state]')).toHaveText('Key changed');
  await expect(card.getByRole('alert')).toContainText(`The key of ${bob.email} has changed`);
  await expect(card.getByLabel('New safety number')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Share files' })).toHaveCount(0);
  await screenshotCard(a, 'key-changed');

  // Sharing another way is refused too, saying why: the share picker does not offer B.
  const third = await writeTextFile(dir, 'not-for-the-server.txt', 'KEYS-TRUST-THIRD');
  await a.goto('/new');
  await startUpload(a, [third]);
  await expect(snackbar(a, 'File uploaded successfully!')).toBeVisible();
  await a.getByRole('link', { name: 'My Files' }).first().click();
  await a.getByRole('button', { name: `Share ${third.name}` }).click();
  const dialog = a.getByRole('dialog', { name: 'Share files' });
  await expect(dialog.getByText('Key changed: accept it on the Contacts page first')).toBeVisible();
  await expect(dialog.getByRole('checkbox', { name: bob.name })).toBeDisabled();
  for (const width of [1280, 390]) {
    await a.setViewportSize({ width, height: 900 });
    await dialog.screenshot({
      path: test.info().outputPath(`share-picker-key-changed-${String(width)}.png`),
    });
  }
  await a.setViewportSize({ width: 1280, height: 900 });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(
    fileCard(a, third.name).getByRole('button', { name: `Revoke access for ${bob.name}` }),
  ).toHaveCount(0);

  // A reads the new safety number and accepts it: sharing is allowed again.
  await a.goto('/contacts');
  await card.getByRole('button', { name: 'Accept new safety number' }).click();
  await expect(card.locator('[data-key-state]')).toHaveText('New key accepted, not verified');
  await expect(card.getByRole('button', { name: 'Share files' })).toBeVisible();
  await screenshotCard(a, 'accepted');
  await a.unroute(`**/api/users/keys/public/${encodeURIComponent(bob.email)}`);
});

test('B checks A’s signature and refuses an injected or forged share', async () => {
  // The server lists sealed names as 'encrypted': B's Shared With Me shows them decrypted.
  await b.goto('/sharedwithme');
  const firstId = await fileIdOfCard(b, first.name);
  const secondId = await fileIdOfCard(b, second.name);
  expect(firstId).not.toBe('');
  expect(secondId).not.toBe('');

  // Genuine: signed by A, offered for download.
  await b.goto(`/share/${firstId}`);
  await expect(b.getByText(`Signed by ${alice.email.toLowerCase()}`)).toBeVisible();
  await expect(b.getByRole('button', { name: 'Download' })).toBeVisible();

  // The server serves the first file's grant and key copy as the second file's.
  const { body: firstShare } = await apiCall(b, 'GET', `/users/files/shared/${firstId}`);
  const injected = firstShare as { shareGrant?: string; encryptedFileKey: string };
  expect(injected.shareGrant).toBeDefined();
  await b.route(`**/api/users/files/shared/${secondId}`, async (route) => {
    const real = (await (await route.fetch()).json()) as Record<string, unknown>;
    const body = { ...real, shareGrant: injected.shareGrant, encryptedFileKey: injected.encryptedFileKey };
    await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
  });
  await b.goto(`/share/${secondId}`);
  await expect(b.getByRole('alert').filter({ hasText: 'Coffer refused to open this file' })).toBeVisible();
  await expect(b.getByText(`Changed after ${alice.email.toLowerCase()} signed it`)).toBeVisible();
  await expect(b.getByRole('button', { name: 'Download' })).toHaveCount(0);
  await b.unroute(`**/api/users/files/shared/${secondId}`);

  // The server strips the signature and forges one: not A's.
  await b.route(`**/api/users/files/shared/${firstId}`, async (route) => {
    const real = (await (await route.fetch()).json()) as { shareGrant: string } & Record<string, unknown>;
    const grant = JSON.parse(real.shareGrant) as Record<string, unknown>;
    grant.signatureB64 = Buffer.alloc(64, 7).toString('base64');
    const body = { ...real, shareGrant: JSON.stringify(grant) };
    await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
  });
  await b.goto(`/share/${firstId}`);
  await expect(b.getByRole('alert').filter({ hasText: 'Coffer refused to open this file' })).toBeVisible();
  await expect(
    b.getByText(`Not signed by ${alice.email.toLowerCase()}: do not trust this file`),
  ).toBeVisible();
  await expect(b.getByRole('button', { name: 'Download' })).toHaveCount(0);

  // Shared With Me shows the refusal on the card too.
  // (A refused share's sealed name is never opened, so its card is found by the file's id.)
  await b.goto('/sharedwithme');
  await expect(
    b.locator(`article[data-file-id="${firstId}"]`).getByText(/Refused: Not signed by/),
  ).toBeVisible();
  await b.unroute(`**/api/users/files/shared/${firstId}`);
});

test('A’s pins rolled back by the server after a logout and login are refused', async () => {
  // Since the last test the server serves B's genuine key again: A accepts it (a new pin set version).
  await a.goto('/contacts');
  const card = a.getByRole('article', { name: bob.name });
  await expect(card.locator('[data-key-state]')).toHaveText('Key changed');
  const { body } = await apiCall(a, 'GET', '/users/pins');
  const older = (body as { pinSet: string | null }).pinSet;
  expect(older).not.toBeNull();
  await card.getByRole('button', { name: 'Accept new safety number' }).click();
  await expect(card.locator('[data-key-state]')).toHaveText('New key accepted, not verified');

  // Logout empties web storage; the highest version seen stays in this browser (IndexedDB).
  await logoutFromSidebar(a);
  await signIn(a, alice);
  await a.route('**/api/users/pins', (route) =>
    route.request().method() === 'GET'
      ? route.fulfill({
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify({ pinSet: older }),
        })
      : route.continue(),
  );
  await unlockEncryption(a, alice.masterKey);
  await a.goto('/contacts');
  await expect(card.getByRole('alert')).toContainText(
    'The server returned an older copy of your verified contacts. Coffer refused to use it.',
  );
  await expect(card.getByRole('button', { name: 'Share files' })).toHaveCount(0);
  await a.unroute('**/api/users/pins');
});
