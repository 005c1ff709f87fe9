// Browser globals for the functions that run in the page (`page.evaluate` of Playwright or puppeteer).
/// <reference lib="dom" />

/**
 * How the transfer engine computes AES-GCM in this browser, as the engine itself answers it
 * (docs/transfers.md, "Streaming computation of a chunk"): `true` slice by slice (its streaming
 * self-test passed), `false` one WebCrypto call per whole chunk (the fallback), `null` not asked (no
 * download service worker registered yet).
 */
export type Streaming = boolean | null;

export interface EngineStatus {
  /** The crypto worker's answer to `{ op: 'status' }` (uploads seal there). */
  cryptoWorker: Streaming;
  /** The download service worker's answer to `coffer-download:status` (downloads open there). */
  serviceWorker: Streaming;
}

/** How a figure's row names the computation. */
export function computedAs(streaming: Streaming): string {
  return streaming === null ? 'not asked' : streaming ? 'slices' : 'whole chunks';
}

/**
 * In the app's page: starts one more instance of the app's bundled crypto worker (`workerUrl`, the
 * same script the app starts; its self-test runs at its start as in the app's own) and asks it
 * `status` with the crypto worker protocol; answers `streaming`. Stops it.
 */
export async function cryptoWorkerStatusInPage(workerUrl: string): Promise<boolean> {
  const worker = new Worker(workerUrl, { type: 'module', name: 'coffer-bench-status' });
  try {
    return await new Promise<boolean>((resolve, reject) => {
      worker.addEventListener('message', (event: MessageEvent) => {
        const answer = event.data as {
          id?: number;
          ok?: boolean;
          streaming?: boolean;
          error?: { message?: string };
        };
        if (answer.id !== 1 || answer.ok === undefined) return;
        if (answer.ok) resolve(answer.streaming === true);
        else reject(new Error(`crypto worker status: ${answer.error?.message ?? 'failed'}`));
      });
      worker.addEventListener('error', (event: ErrorEvent) => {
        reject(new Error(`crypto worker: ${event.message}`));
      });
      worker.postMessage({ id: 1, op: 'status' });
    });
  } finally {
    worker.terminate();
  }
}

/**
 * In the app's page: asks the registered download service worker `coffer-download:status` on a
 * port; answers its `streaming`, or null when none is registered (before the first download).
 */
export async function serviceWorkerStatusInPage(): Promise<boolean | null> {
  const registration = await navigator.serviceWorker.getRegistration('/__coffer_download__/');
  const active = registration?.active ?? null;
  if (active === null) return null;
  const channel = new MessageChannel();
  const answered = new Promise<boolean>((resolve) => {
    channel.port1.addEventListener('message', (event: MessageEvent) => {
      resolve((event.data as { streaming?: boolean }).streaming === true);
    });
    channel.port1.start();
  });
  active.postMessage({ type: 'coffer-download:status' }, [channel.port2]);
  return answered;
}

/**
 * In the app's page: where the registered download service worker keeps a chunk between its verify
 * and decrypt passes (`files` of the origin private file system, or `blobs`, the fallback), or null
 * when none is registered or it does not say.
 */
export async function serviceWorkerChunksInPage(): Promise<string | null> {
  const registration = await navigator.serviceWorker.getRegistration('/__coffer_download__/');
  const active = registration?.active ?? null;
  if (active === null) return null;
  const channel = new MessageChannel();
  const answered = new Promise<string | null>((resolve) => {
    channel.port1.addEventListener('message', (event: MessageEvent) => {
      const { chunks } = event.data as { chunks?: string };
      resolve(chunks ?? null);
    });
    channel.port1.start();
  });
  active.postMessage({ type: 'coffer-download:status' }, [channel.port2]);
  return answered;
}
