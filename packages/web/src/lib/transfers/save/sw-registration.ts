import { TransferError } from '../transfer-errors';
import {
  DOWNLOAD_NOT_STARTED_TEXT,
  DOWNLOAD_SW_PATH,
  DOWNLOAD_SW_URL,
  DOWNLOAD_URL_PREFIX,
} from './download-sw-protocol';

/**
 * Registration of the download service worker (`src/sw/download-service-worker.ts`), which runs
 * service-worker downloads itself (see `sw-download.ts`).
 */

let registration: Promise<ServiceWorkerRegistration> | null = null;

/**
 * Registers the app's download service worker with the narrowest scope that works:
 * `/__coffer_download__/`, the URLs it answers. The app's pages are never controlled by it, so
 * uploads and API calls never pass through a worker (a page-wide worker kept every 95 MiB upload part
 * alive in the browser until the worker was collected). A worker registered by an older version at
 * `/` is removed; one registered at the same scope with an older protocol (`DOWNLOAD_SW_URL`) is
 * replaced. Safe to call early; retried on the next call if it failed.
 */
export function registerDownloadServiceWorker(): Promise<ServiceWorkerRegistration> {
  registration ??= removePageWideWorker()
    .then(() => navigator.serviceWorker.register(DOWNLOAD_SW_URL, { scope: DOWNLOAD_URL_PREFIX }))
    .catch((error: unknown) => {
      registration = null;
      throw error;
    });
  return registration;
}

async function removePageWideWorker(): Promise<void> {
  const pageWide = `${location.origin}/`;
  const all = await navigator.serviceWorker.getRegistrations();
  await Promise.all(
    all
      .filter(
        (r) =>
          r.scope === pageWide &&
          r.active !== null &&
          new URL(r.active.scriptURL).pathname === DOWNLOAD_SW_PATH,
      )
      .map((r) => r.unregister()),
  );
}

/**
 * The registration's newest worker once it is active: after a deploy that changed the protocol, the
 * new worker is installing while the old one is still active, and only the new one understands this
 * page's messages (it takes over as soon as it is installed: `skipWaiting`).
 */
export async function activeDownloadWorker(): Promise<ServiceWorker> {
  const registered = await registerDownloadServiceWorker();
  const newest = registered.installing ?? registered.waiting ?? registered.active;
  if (newest === null) throw new TransferError('SAVE_UNAVAILABLE', DOWNLOAD_NOT_STARTED_TEXT);
  return new Promise((resolve, reject) => {
    const onChange = (): void => {
      if (newest.state === 'activated') {
        newest.removeEventListener('statechange', onChange);
        resolve(newest);
      } else if (newest.state === 'redundant') {
        newest.removeEventListener('statechange', onChange);
        reject(new TransferError('SAVE_UNAVAILABLE', DOWNLOAD_NOT_STARTED_TEXT));
      }
    };
    newest.addEventListener('statechange', onChange);
    onChange();
  });
}

/** Navigates a hidden iframe to the URL; the service worker's attachment answer becomes a download. */
export function openInHiddenFrame(url: string): () => void {
  const frame = document.createElement('iframe');
  frame.hidden = true;
  frame.src = url;
  document.body.append(frame);
  return () => {
    frame.remove();
  };
}
