import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DOWNLOAD_NOT_STARTED_TEXT, DOWNLOAD_SW_URL, DOWNLOAD_URL_PREFIX } from './download-sw-protocol';

/** A ServiceWorker whose state the test moves on. */
class FakeWorker extends EventTarget {
  constructor(
    readonly scriptURL: string,
    public state: ServiceWorkerState,
  ) {
    super();
  }

  moveTo(state: ServiceWorkerState): void {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}

interface FakeRegistration {
  scope: string;
  active: FakeWorker | null;
  installing: FakeWorker | null;
  waiting: FakeWorker | null;
}

let registration: FakeRegistration;
const register = vi.fn();

beforeEach(() => {
  vi.resetModules();
  register.mockReset();
  register.mockImplementation(() => Promise.resolve(registration));
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { register, getRegistrations: () => Promise.resolve([]) },
  });
});
afterEach(() => {
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

/** A fresh module: it caches its registration. */
async function activeDownloadWorker(): Promise<ServiceWorker> {
  const module = await import('./sw-registration');
  return module.activeDownloadWorker();
}

describe('download service worker registration', () => {
  it('registers the versioned script for the download URLs only', async () => {
    registration = {
      scope: `${location.origin}${DOWNLOAD_URL_PREFIX}`,
      active: new FakeWorker(`${location.origin}${DOWNLOAD_SW_URL}`, 'activated'),
      installing: null,
      waiting: null,
    };
    await activeDownloadWorker();
    expect(register).toHaveBeenCalledWith(DOWNLOAD_SW_URL, { scope: DOWNLOAD_URL_PREFIX });
    expect(DOWNLOAD_SW_URL).toMatch(/^\/download-sw\.js\?protocol=\d+$/);
  });

  it('after a deploy, uses the new worker once it is active, never the old one still active beside it', async () => {
    // The worker an earlier version installed (it would ignore this version's messages).
    const old = new FakeWorker(`${location.origin}/download-sw.js`, 'activated');
    const installing = new FakeWorker(`${location.origin}${DOWNLOAD_SW_URL}`, 'installing');
    registration = { scope: DOWNLOAD_URL_PREFIX, active: old, installing, waiting: null };
    let chosen: ServiceWorker | null = null;
    const choosing = activeDownloadWorker().then((worker) => {
      chosen = worker;
    });
    await vi.waitFor(() => {
      expect(register).toHaveBeenCalled();
    });
    installing.moveTo('installed');
    installing.moveTo('activating');
    await Promise.resolve();
    expect(chosen).toBeNull();
    installing.moveTo('activated');
    await choosing;
    expect(chosen).toBe(installing);
  });

  it('says the download cannot start when the new worker fails to install', async () => {
    const installing = new FakeWorker(`${location.origin}${DOWNLOAD_SW_URL}`, 'installing');
    registration = { scope: DOWNLOAD_URL_PREFIX, active: null, installing, waiting: null };
    const choosing = activeDownloadWorker();
    await vi.waitFor(() => {
      expect(register).toHaveBeenCalled();
    });
    installing.moveTo('redundant');
    await expect(choosing).rejects.toThrow(DOWNLOAD_NOT_STARTED_TEXT);
  });
});
