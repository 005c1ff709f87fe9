import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { newPerson, signUpReady } from '../helpers/auth.js';
import { addContact } from '../helpers/contacts.js';
import {
  apiCall,
  downloadAndHash,
  fileCard,
  fileIdOfCard,
  forceServiceWorkerSave,
  snackbar,
  startUpload,
  writeTextFile,
} from '../helpers/files.js';
import { startScaleStack } from './stack.js';
import type { ScaleStack } from './stack.js';

/**
 * Issue 16: several identical instances behind a real proxy. A two-person journey (sign-up, keys,
 * upload, share, download, revoke) through nginx's round robin lands on both instances; then one
 * instance is stopped, and the rest of the journey completes on the other.
 */

/** Requests a signed-in user's API calls made: never static files, health or readiness probes. */
function apiRequests(byRoute: ReadonlyMap<string, number>): number {
  return [...byRoute].reduce((sum, [route, count]) => sum + (route.startsWith('/api/users/') ? count : 0), 0);
}

/** Undefined when the stack could not start (its error is the test's failure). */
let stack: ScaleStack | undefined;
let dir: string;

test.beforeAll(async () => {
  // A ceiling: two builds' start, migrations and nginx on a busy two-core machine.
  test.setTimeout(300_000);
  dir = await mkdtemp(join(tmpdir(), 'coffer-e2e-scale-files-'));
  const dataDir = process.env.COFFER_E2E_SCALE_DATA_DIR ?? '';
  stack = await startScaleStack(Number(process.env.E2E_SCALE_PORT), dataDir, {
    // Both people sign up from the same loopback address.
    IDP_ATTEMPTS_PER_IP: '1000',
  });
});

test.afterAll(async () => {
  await stack?.stop();
  await rm(dir, { recursive: true, force: true });
});

test('a journey through the proxy lands on both instances and survives one stopping', async ({ browser }) => {
  if (stack === undefined) throw new Error('the scale-out stack did not start');
  const file = await writeTextFile(dir, 'team-plan.txt', `SCALE-${Date.now().toString(36)}`);
  const alice = newPerson('alice');
  const bob = newPerson('bob');
  const a = await (await browser.newContext()).newPage();
  const b = await (await browser.newContext()).newPage();
  await forceServiceWorkerSave(b);

  await signUpReady(a, alice);
  await startUpload(a, [file]);
  await expect(snackbar(a, 'File uploaded successfully!')).toBeVisible();
  await signUpReady(b, bob);

  await addContact(a, bob);
  await a.getByRole('link', { name: 'My Files' }).first().click();
  await a.getByRole('button', { name: `Share ${file.name}` }).click();
  const share = a.getByRole('dialog', { name: 'Share files' });
  await share.getByRole('checkbox', { name: bob.name }).check();
  await share.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(snackbar(a, `${file.name} shared successfully with ${bob.name}`)).toBeVisible();

  // Round robin without sticky sessions: both instances have served this journey's API calls and
  // sign-in (the identity provider's endpoints), not only static files and readiness probes.
  const served = [await stack.requestsByRoute(0), await stack.requestsByRoute(1)];
  for (const routes of served) {
    expect(apiRequests(routes)).toBeGreaterThan(3);
    expect(routes.get('/idp/*') ?? 0).toBeGreaterThan(0);
  }

  // One instance goes away (a deploy, a crash); nginx sends everything to the other.
  await stack.stopInstance(0);

  await b.getByRole('link', { name: 'Shared With Me' }).first().click();
  const received = fileCard(b, file.name);
  await expect(received.getByText(`From ${alice.email}`)).toBeVisible();
  const { sha256 } = await downloadAndHash(b, () =>
    received.getByRole('button', { name: `Download ${file.name}` }).click(),
  );
  expect(sha256).toBe(file.sha256);

  await a.reload();
  // B's list names files by id (and their names are sealed, issue 31): the id is read from A's card.
  const fileId = await fileIdOfCard(a, file.name);
  expect(fileId).not.toBe('');
  const sharedIds = async (): Promise<string[]> =>
    ((await apiCall(b, 'GET', '/users/files/shared')).body as { files: { fileId: string }[] }).files.map(
      (shared) => shared.fileId,
    );
  expect(await sharedIds()).toContain(fileId);
  await fileCard(a, file.name)
    .getByRole('button', { name: `Revoke access for ${bob.name}` })
    .click();
  // Revoking asks first.
  await a
    .getByRole('dialog', { name: 'Revoke access?' })
    .getByRole('button', { name: 'Revoke', exact: true })
    .click();
  await expect(snackbar(a, `Access revoked for ${bob.name}`)).toBeVisible();
  expect(await sharedIds()).not.toContain(fileId);
  expect((await apiCall(b, 'GET', `/users/files/shared/${fileId}`)).status).toBe(404);

  expect(apiRequests(await stack.requestsByRoute(1))).toBeGreaterThan(apiRequests(served[1] ?? new Map()));
});
