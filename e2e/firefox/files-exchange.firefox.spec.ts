import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHUNK_OVERHEAD_BYTES, CHUNK_SIZE } from '@coffer/contracts';
import { expect, test } from '@playwright/test';
import type { Browser } from 'puppeteer-core';
import { createConfirmedAccount } from '../helpers/accounts.js';
import { newPerson, type TestPerson } from '../helpers/auth.js';
import { e2eDataDir, sha256OfFile, writeTestFile, writeTextFile, type TestFile } from '../helpers/files.js';
import { tamperStoredChunk } from './blob-tamper.js';
import {
  addContact,
  downloadOwn,
  downloadShared,
  setUpEncryption,
  shareWithContact,
  signIn,
  uploadFiles,
} from './coffer-flows.js';
import {
  emptyFolder,
  entries,
  isPrefixOf,
  partialFiles,
  savedFiles,
  waitForSavedFile,
} from './download-folder.js';
import { launchFirefox, openWindow, type FirefoxWindow } from './firefox-browser.js';
import { waitForText } from './page-actions.js';

/**
 * The two-person journey in Firefox (issue 32): sign-up, encryption, contacts, an upload of a small
 * file and of a two-chunk file (multipart), sharing, downloads with identical bytes through Firefox's
 * own download path (the app's service worker), and a chunk tampered with on the server's disk that
 * makes the download fail with nothing saved. Chromium's version of it, with more around it, is
 * tests/files-exchange.spec.ts.
 */

const MIB = 1024 * 1024;
const MARKER = `COFFER-FIREFOX-MARKER-${Date.now().toString(36)}`;

test.describe.configure({ mode: 'serial' });

let dir: string;
let small: TestFile;
let big: TestFile;
let alice: TestPerson;
let bob: TestPerson;
let firefox: Browser;
let a: FirefoxWindow;
let b: FirefoxWindow;

function baseUrl(): string {
  const url = test.info().project.use.baseURL;
  if (url === undefined) throw new Error('baseURL is not set (see e2e/firefox/playwright.firefox.config.ts)');
  return url;
}

test.beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coffer-e2e-firefox-'));
  small = await writeTextFile(dir, 'firefox-notes.txt', MARKER);
  // 101 MiB: above the 100 MiB direct-upload threshold, so a multipart upload of two parts, each one
  // encrypted chunk (95 MiB of plaintext at most).
  big = await writeTestFile(dir, 'firefox-archive.bin', 101 * MIB, MARKER);
  alice = newPerson('ffalice');
  bob = newPerson('ffbob');
  firefox = await launchFirefox();
  a = await openWindow(firefox, dir, 'alice');
  b = await openWindow(firefox, dir, 'bob');
});

// Puppeteer's pages are not Playwright's: a failed step attaches what each person saw.
test.afterEach(async () => {
  const testInfo = test.info();
  if (testInfo.status === testInfo.expectedStatus) return;
  for (const [label, window] of [
    ['alice', a],
    ['bob', b],
  ] as const) {
    const path = testInfo.outputPath(`${label}.png`);
    await window.page.screenshot({ path }).catch(() => undefined);
    await testInfo
      .attach(`${label} at ${window.page.url()}`, { path, contentType: 'image/png' })
      .catch(() => undefined);
  }
});

test.afterAll(async () => {
  await firefox.close();
  await rm(dir, { recursive: true, force: true });
});

test('two people sign up, set up encryption and add each other as contacts', async () => {
  await Promise.all([createConfirmedAccount(alice), createConfirmedAccount(bob)]);
  await signIn(a.page, baseUrl(), alice);
  await setUpEncryption(a.page, alice.masterKey);
  await signIn(b.page, baseUrl(), bob);
  await setUpEncryption(b.page, bob.masterKey);
  await addContact(a.page, bob);
  await addContact(b.page, alice);
});

test('A uploads a small file and a two-chunk file and shares both with B', async () => {
  await uploadFiles(a.page, [small, big]);
  await shareWithContact(a.page, bob, [small, big]);
});

test('B downloads both files and gets identical bytes', async () => {
  await downloadShared(b.page, small);
  expect(await sha256OfFile(await waitForSavedFile(b.downloads, small.name, small.size))).toBe(small.sha256);
  await downloadShared(b.page, big);
  expect(await sha256OfFile(await waitForSavedFile(b.downloads, big.name, big.size))).toBe(big.sha256);
  expect((await entries(b.downloads)).map((entry) => entry.name)).toEqual([big.name, small.name].sort());
});

/**
 * After a failed download, what the folder may hold: no saved file (Firefox's empty placeholder
 * is not one), and at most a `.part` with plaintext of the chunks before the tampered one, byte for
 * byte the original's start. More would be plaintext the app released before verifying it.
 */
async function expectNothingSavedBeyond(downloads: string, verifiedBytes: number): Promise<void> {
  expect(await savedFiles(downloads)).toEqual([]);
  for (const part of await partialFiles(downloads)) {
    expect(part.size).toBeLessThanOrEqual(verifiedBytes);
    expect(await isPrefixOf(join(downloads, part.name), big.path)).toBe(true);
  }
}

test('a chunk tampered with on the server fails the download, and no file is saved', async () => {
  // The last chunk: the first is authentic, so only holding the last back keeps unverified bytes off the disk.
  await tamperStoredChunk(join(e2eDataDir(), 'blobs'), big.size + 2 * CHUNK_OVERHEAD_BYTES, 1);
  // B's earlier downloads go, so that anything in the folder afterwards is this download's.
  await emptyFolder(b.downloads);

  await downloadShared(b.page, big);
  // Spec section 8: a shared download's failure reads 'Download failed', without the reason.
  await waitForText(b.page, 'Download failed', 240_000);
  await expectNothingSavedBeyond(b.downloads, CHUNK_SIZE);

  // The owner's download names the reason.
  await downloadOwn(a.page, big);
  await waitForText(
    a.page,
    'Download failed: The file is corrupted or was tampered with. Nothing was saved.',
    240_000,
  );
  await expectNothingSavedBeyond(a.downloads, CHUNK_SIZE);
  // Again for B, long after its failure: nothing arrived late.
  await expectNothingSavedBeyond(b.downloads, CHUNK_SIZE);
});
