// Browser globals for the functions that run in the page (`page.evaluate`).
/// <reference lib="dom" />
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { signIn, signUpReady, unlockEncryption, type TestPerson } from '../../helpers/auth.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../helpers/browser.js';
import { apiCall, forceServiceWorkerSave } from '../../helpers/files.js';
import type { ChromiumProcesses } from '../measure/chromium-processes.js';
import { installBlockRecorder } from '../measure/main-thread-blocking.js';

/** The browser, and the context and page of the size being measured. */
export interface Harness {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
  memory: ChromiumProcesses;
  base: string;
  dir: string;
  profile: boolean;
  /** See `Args.persistent`. */
  persistent: boolean;
  /** See `Args.taskCpu`. */
  taskCpu: boolean;
}

/**
 * tsx (esbuild, keepNames) wraps named functions in `__name(…)`, also inside the functions this
 * script sends to the page: a page gets a no-op one first.
 */
export const NAME_SHIM = { content: 'globalThis.__name ??= (fn) => fn;' };

export const isControlled = (page: Page): Promise<boolean> =>
  page.evaluate(() => navigator.serviceWorker.controller !== null);

/**
 * A fresh context (no service worker registered, as on a first visit) signed in through the UI,
 * with the block recorder and the service-worker save method; it becomes the harness's page.
 */
export async function openSession(h: Harness, person: TestPerson, isNew: boolean): Promise<void> {
  const context = h.persistent
    ? await chromium.launchPersistentContext(await mkdtemp(join(h.dir, 'profile-')), {
        executablePath: CHROMIUM_PATH,
        args: [...CHROMIUM_ARGS],
        downloadsPath: join(h.dir, 'downloads'),
        baseURL: h.base,
        acceptDownloads: true,
      })
    : await h.browser.newContext({ baseURL: h.base, acceptDownloads: true });
  const page = await context.newPage();
  await page.addInitScript(NAME_SHIM);
  await page.addInitScript(installBlockRecorder);
  await forceServiceWorkerSave(page);
  if (isNew) {
    await signUpReady(page, person);
  } else {
    await signIn(page, person);
    await unlockEncryption(page, person.masterKey);
  }
  h.context = context;
  h.page = page;
  h.cdp = await context.newCDPSession(page);
  h.memory.identifyPage();
}

export async function deleteAllFiles(page: Page): Promise<void> {
  const { body } = await apiCall(page, 'GET', '/users/files');
  for (const stored of (body as { files: { fileId: string }[] }).files) {
    await apiCall(page, 'DELETE', `/users/files/${stored.fileId}`);
  }
}
