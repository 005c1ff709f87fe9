/**
 * The download floor benchmark's browser: a Chromium the benchmark starts itself (a profile on disk)
 * and drives over CDP, so that it can let go of it while a stage runs, as a user's browser has no
 * DevTools client (Playwright's instrumentation of a worker's fetches costs CPU a user's browser does
 * not spend: docs/benchmarks.md, session 24). Three pages: the fixture's (`floor-fixture.ts`), the
 * app's (signed in, My Files) and one the app's plain download is saved from.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { launchOwnChromium, type OwnChromium } from '../driver/own-chromium.js';

export interface FloorPages {
  readonly floor: Page;
  readonly app: Page;
  readonly save: Page;
}

export class FloorBrowser {
  private browser: Browser | null = null;

  private constructor(
    private readonly own: OwnChromium,
    readonly floorBase: string,
    readonly appBase: string,
  ) {}

  /** Chromium on a fresh profile in `dir` whose downloads go to `downloads`, connected. */
  static async start(
    dir: string,
    downloads: string,
    floorBase: string,
    appBase: string,
  ): Promise<FloorBrowser> {
    // A desktop window (the app's layout as in the other benchmarks) that stays so across connections:
    // Playwright's emulated viewport ends with the connection that set it.
    const own = await launchOwnChromium(dir, downloads, ['--window-size=1280,800']);
    const started = new FloorBrowser(own, floorBase, appBase);
    try {
      await started.connect();
    } catch (error) {
      await own.kill();
      throw error;
    }
    return started;
  }

  /** The connection's default context (the profile's), where every page lives. */
  private get context(): ReturnType<Browser['contexts']>[number] {
    const context = this.browser?.contexts()[0];
    if (context === undefined) throw new Error('not connected to the floor browser');
    return context;
  }

  async connect(): Promise<void> {
    this.browser = await chromium.connectOverCDP(this.own.ws, { isLocal: true });
  }

  /** Lets go of the browser (no DevTools client left); pages must be asked for again after `connect`. */
  async letGo(): Promise<void> {
    const browser = this.browser;
    this.browser = null;
    await browser?.close();
  }

  newPage(): Promise<Page> {
    return this.context.newPage();
  }

  /** The three pages of this connection, by their address. */
  pages(): FloorPages {
    const pages = this.context.pages();
    const at = (page: Page): { origin: string; pathname: string } => {
      try {
        return new URL(page.url());
      } catch {
        return { origin: '', pathname: '' };
      }
    };
    const floorOrigin = new URL(this.floorBase).origin;
    const appOrigin = new URL(this.appBase).origin;
    const isSave = (page: Page): boolean =>
      at(page).origin === appOrigin && at(page).pathname === '/api/health';
    const floor = pages.find((page) => at(page).origin === floorOrigin);
    const save = pages.find(isSave);
    const app = pages.find((page) => at(page).origin === appOrigin && !isSave(page));
    if (floor === undefined || save === undefined || app === undefined)
      throw new Error(`the floor browser's pages: ${pages.map((page) => page.url()).join(', ')}`);
    return { floor, app, save };
  }

  /** Kills the browser and waits until it exited. */
  kill(): Promise<void> {
    return this.own.kill();
  }
}
