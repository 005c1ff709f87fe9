import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';

/**
 * Firefox for the browser tests: Debian's `firefox-esr`, driven by puppeteer-core over WebDriver BiDi.
 * Playwright drives only its own patched Firefox build, which cannot be downloaded here; puppeteer
 * speaks the standard protocol the stock Firefox ships.
 */
export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/**
 * Headless Firefox with a fresh profile (puppeteer makes a temporary one per launch and removes it
 * on close). The preferences keep it quiet and make a download a plain save to the folder that the
 * person's window asked for (`openWindow`), with no dialog.
 */
export async function launchFirefox(): Promise<Browser> {
  return puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    // Playwright's default window: wide enough for the app's side navigation (800 × 600 shows the burger).
    defaultViewport: { width: 1280, height: 720 },
    // A ceiling for one protocol call, not a wait: a 100 MB upload's file input hands over a path only.
    protocolTimeout: 180_000,
    // No WebDriver BiDi network monitoring: nothing here listens to requests, and with it Firefox's
    // parent process reads every request and response body on its main thread (and keeps copies:
    // puppeteer asks for 20 MB "data collectors"). Measured on a scratch page (256 MiB): a plain
    // download 114 -> 274 MB/s and 13.4 -> 5.7 CPU-s per GiB without it; a service worker's streamed
    // download 40 -> 50 MB/s. A user's Firefox has no such monitoring, so tests and benchmarks drop it.
    networkEnabled: false,
    extraPrefsFirefox: {
      // Makes puppeteer's "data collectors" (added even without network events) fail, as it allows:
      // no more than 0 bytes of bodies may be kept.
      'remote.network.maxTotalDataSize': 0,
      'browser.download.always_ask_before_handling_new_types': false,
      'browser.download.manager.showWhenStarting': false,
      'browser.download.panel.shown': true,
      'app.update.auto': false,
      'datareporting.policy.dataSubmissionEnabled': false,
    },
  });
}

/** One person's browser: a user context of its own (cookies, storage, service workers) and a tab. */
export interface FirefoxWindow {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Where this window's downloads are saved. */
  readonly downloads: string;
}

/**
 * A new user context, like a second person's browser, whose downloads go to a fresh folder under
 * `parentDir` (WebDriver BiDi `browser.setDownloadBehavior`, which puppeteer sends for
 * `downloadBehavior`).
 */
export async function openWindow(browser: Browser, parentDir: string, label: string): Promise<FirefoxWindow> {
  const downloads = await mkdtemp(join(parentDir, `${label}-downloads-`));
  const context = await browser.createBrowserContext({
    downloadBehavior: { policy: 'allow', downloadPath: downloads },
  });
  const page = await context.newPage();
  // Ceilings, not waits: a 100 MB transfer and two 600000-round key derivations on a busy 2-core machine.
  page.setDefaultTimeout(60_000);
  page.setDefaultNavigationTimeout(60_000);
  return { context, page, downloads };
}
