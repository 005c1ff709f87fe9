// Browser globals for the functions that run in the page (`page.evaluate`).
/// <reference lib="dom" />
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page, Worker } from 'playwright-core';
import { newPerson, signUpReady } from '../../helpers/auth.js';
import { forceServiceWorkerSave, snackbar, type TestFile } from '../../helpers/files.js';
import { elapsed } from '../bench-units.js';
import { serviceWorkerStatusInPage, type Streaming } from '../measure/engine-status.js';
import { downloadFromCard } from './encrypted-transfers.js';
import { TransferFailed } from './measured-run.js';
import { NAME_SHIM, type Harness } from './session.js';

export interface Exchange {
  seconds: number;
  /** SHA-256 compared (else the size only). */
  hashed: boolean;
  /** How the recipient's download service worker opened the chunks. */
  streaming: Streaming;
  /** Why the download failed (`seconds` then ran until it failed); null when it succeeded. */
  failure: string | null;
}

/**
 * The owner (h.page, the file uploaded) adds a new person as a contact and shares the file with
 * them through the UI; that person, in a browser context of their own, downloads it from Shared
 * With Me (service-worker save path). Timed from the click to the file on disk.
 */
export async function shareAndReceive(h: Harness, file: TestFile, hash: boolean): Promise<Exchange> {
  const recipient = newPerson('bench-recipient');
  const context = await h.browser.newContext({ baseURL: h.base, acceptDownloads: true });
  try {
    const page = await context.newPage();
    await page.addInitScript(NAME_SHIM);
    await forceServiceWorkerSave(page);
    await signUpReady(page, recipient);

    const owner = h.page;
    await owner.getByRole('link', { name: 'Contacts' }).first().click();
    // The round add-contact button (the empty state's "Add Contact" is gone once a contact exists).
    await owner.getByRole('button', { name: 'Add contact', exact: true }).click();
    const dialog = owner.getByRole('dialog', { name: 'Add contact' });
    await dialog.getByLabel(/^Name/).fill(recipient.name);
    await dialog.getByLabel(/^Email/).fill(recipient.email);
    await dialog.getByRole('button', { name: 'Add contact' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const contactCard = owner.getByRole('article', { name: recipient.name });
    // The key-trust badge ("Not verified in person") replaces the "Verified" status once the key is
    // pinned; the Share files button is what a contact with a key offers (as in contacts-manage.spec).
    await contactCard.getByRole('button', { name: 'Share files' }).click();
    const share = owner.getByRole('dialog', { name: `Share files with ${recipient.name}` });
    await share.getByRole('checkbox', { name: file.name }).check();
    await share.getByRole('button', { name: 'Share', exact: true }).click();
    await snackbar(owner, `${file.name} shared successfully with ${recipient.name}`).waitFor();

    await page.getByRole('link', { name: 'Shared With Me' }).first().click();
    const events = recordEvents(context, page);
    // A download that has not started a minute after the click is printed with what the recipient's
    // page and service worker did (the wait goes on to the transfer's ceiling).
    const report = async (why: string): Promise<void> => {
      const shown = await page
        .locator('.mantine-Notification-root, [role="alert"]')
        .allInnerTexts()
        .catch(() => []);
      const workers = await page
        .evaluate(async () =>
          (await navigator.serviceWorker.getRegistrations()).map((r) => ({
            scope: r.scope,
            installing: r.installing?.state ?? null,
            waiting: r.waiting?.state ?? null,
            active: r.active?.state ?? null,
          })),
        )
        .catch((error: unknown) => String(error));
      const shot = join(tmpdir(), `coffer-bench-exchange-${Date.now()}.png`);
      await page.screenshot({ path: shot }).catch(() => undefined);
      console.log(`  shared download: ${why}; the recipient's screen: ${shot}`);
      console.log(`  shown: ${JSON.stringify(shown)}; service workers: ${JSON.stringify(workers)}`);
      for (const line of events) console.log(`    ${line}`);
    };
    let started = false;
    page.once('download', () => {
      started = true;
    });
    const slow = setTimeout(() => {
      if (!started) void report('the browser download has not started after 60 s');
    }, 60_000);
    try {
      const seconds = await downloadFromCard(page, file, hash, 'shared download', join(h.dir, 'downloads'));
      return {
        seconds,
        hashed: hash,
        streaming: await page.evaluate(serviceWorkerStatusInPage),
        failure: null,
      };
    } catch (error) {
      await report(`failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!(error instanceof TransferFailed)) throw error;
      const streaming = await page.evaluate(serviceWorkerStatusInPage).catch(() => null);
      return { seconds: error.seconds, hashed: hash, streaming, failure: error.message };
    } finally {
      clearTimeout(slow);
    }
  } finally {
    await context.close();
  }
}

/** What a page and its service workers do, one line each with the seconds since the call (diagnostics). */
function recordEvents(context: BrowserContext, page: Page): string[] {
  const start = process.hrtime.bigint();
  const lines: string[] = [];
  const add = (line: string): void => {
    lines.push(`${elapsed(start).toFixed(2)} s ${line}`);
  };
  const path = (url: string): string => {
    const { pathname } = new URL(url);
    return pathname.length > 80 ? `${pathname.slice(0, 80)}…` : pathname;
  };
  const from = (request: { serviceWorker(): unknown }): string =>
    request.serviceWorker() === null ? 'page' : 'service worker';
  page.on('console', (message) => {
    add(`page console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => {
    add(`page error: ${error.message}`);
  });
  page.on('download', (download) => {
    add(`download event: ${download.suggestedFilename()}`);
  });
  page.on('frameattached', (frame) => {
    add(`frame attached ${frame.url()}`);
  });
  const watchWorker = (worker: Worker): void => {
    add(`service worker ${path(worker.url())}`);
    worker.on('console', (message) => {
      add(`service worker console ${message.type()}: ${message.text()}`);
    });
  };
  context.serviceWorkers().forEach(watchWorker);
  context.on('serviceworker', watchWorker);
  context.on('request', (request) => {
    if (request.resourceType() === 'image' || request.resourceType() === 'stylesheet') return;
    add(`${from(request)} ${request.method()} ${path(request.url())} (${request.resourceType()})`);
  });
  context.on('response', (response) => {
    add(
      `  ${response.status()} ${path(response.url())}${response.fromServiceWorker() ? ' (from service worker)' : ''}`,
    );
  });
  context.on('requestfailed', (request) => {
    add(`  failed ${path(request.url())}: ${request.failure()?.errorText ?? '?'}`);
  });
  return lines;
}
