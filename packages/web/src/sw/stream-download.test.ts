import { describe, expect, it } from 'vitest';
import { openServiceWorkerZipSink } from '../lib/zip/zip-save';
import { installStreamDownloads } from './stream-download';

const ORIGIN = 'http://coffer.test';

/**
 * The real stream-download code of the service worker against a stand-in for its scope. As in a
 * browser, a posted message reaches the worker as a task of its own (here: a later macrotask), and
 * the iframe's navigation as another, in no promised order: the navigation is dispatched at once.
 */
function startWorker() {
  const handlers = new Map<string, (event: never) => void>();
  installStreamDownloads({
    location: { origin: ORIGIN },
    addEventListener: (type: string, handler: (event: never) => void) => handlers.set(type, handler),
  });
  const answers: Promise<Response>[] = [];
  const worker = {
    postMessage(message: unknown, transfer: Transferable[] = []) {
      setTimeout(() => {
        handlers.get('message')?.({
          data: message,
          ports: transfer.filter((item): item is MessagePort => !(item instanceof ReadableStream)),
          waitUntil: () => undefined,
        } as never);
      }, 5);
    },
  };
  const openUrl = (url: string): (() => void) => {
    answers.push(
      new Promise<Response>((resolve) => {
        handlers.get('fetch')?.({
          request: { url: new URL(url, ORIGIN).href },
          respondWith: resolve,
          stopImmediatePropagation: () => undefined,
        } as never);
      }),
    );
    return () => undefined;
  };
  return { worker, openUrl, answers };
}

describe('a ZIP saved through the download service worker', () => {
  it('opens the iframe only once the worker registered the stream, so its URL is never answered 404', async () => {
    const { worker, openUrl, answers } = startWorker();
    const sink = await openServiceWorkerZipSink('photos.zip', {
      getWorker: () => Promise.resolve(worker),
      openUrl,
    });
    const [answered, ...others] = answers;
    expect(others).toEqual([]);
    if (answered === undefined) throw new Error('the iframe was not opened');
    const response = await answered;
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Disposition')).toContain('photos.zip');
    const body = response.arrayBuffer();
    await sink.write(new Uint8Array([80, 75, 3, 4]));
    await sink.close();
    expect([...new Uint8Array(await body)]).toEqual([80, 75, 3, 4]);
  });

  it('says the download could not start when the worker never answers, and opens nothing', async () => {
    const opened: string[] = [];
    await expect(
      openServiceWorkerZipSink('photos.zip', {
        getWorker: () => Promise.resolve({ postMessage: () => undefined }),
        openUrl: (url) => {
          opened.push(url);
          return () => undefined;
        },
        registerTimeoutMs: 20,
      }),
    ).rejects.toMatchObject({ code: 'SAVE_UNAVAILABLE' });
    expect(opened).toEqual([]);
  });
});
