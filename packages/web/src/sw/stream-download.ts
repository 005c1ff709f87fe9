import {
  STREAM_DOWNLOAD_PREFIX,
  type StreamDownloadControlMessage,
  type StreamRegisteredAnswer,
} from '../lib/zip/stream-download-protocol';
import { contentDisposition } from './download-service-worker';

/** The parts of the worker's scope this uses (a stand-in in unit tests). */
export interface StreamWorkerScope {
  readonly location: { readonly origin: string };
  addEventListener(
    type: 'message',
    listener: (event: {
      data: unknown;
      readonly ports: readonly MessagePort[];
      waitUntil(promise: Promise<unknown>): void;
    }) => void,
  ): void;
  addEventListener(
    type: 'fetch',
    listener: (event: {
      request: { url: string };
      respondWith(response: Response): void;
      stopImmediatePropagation(): void;
    }) => void,
  ): void;
}

/** How long one message keeps the worker running while a stream is saved (keep-alives extend it). */
const KEEP_RUNNING_MS = 4 * 60_000;
/** A stream the page never opened is dropped after this long. */
const UNOPENED_TTL_MS = 60_000;

interface WaitingStream {
  readonly fileName: string;
  readonly stream: ReadableStream<Uint8Array>;
  readonly ended: Promise<void>;
  markEnded(): void;
  answered: boolean;
}

/**
 * Page-made downloads (a ZIP, issue 31; `lib/zip/stream-download-protocol.ts`): the stream the
 * page transferred answers its URL once, as an attachment, with no Content-Length (the archive's
 * size is known only at its end). Registered BEFORE the single-file downloads' listener: its
 * fetch listener stops the event for its own URLs.
 */
export function installStreamDownloads(scope: StreamWorkerScope): void {
  const streams = new Map<string, WaitingStream>();

  const keepRunning = (entry: WaitingStream): Promise<void> =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, KEEP_RUNNING_MS);
      void entry.ended.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });

  scope.addEventListener('message', (event) => {
    const data = event.data as StreamDownloadControlMessage | null;
    if (data === null || typeof data !== 'object' || typeof data.id !== 'string') return;
    if (data.type === 'coffer-download:stream') {
      if (!(data.stream instanceof ReadableStream) || streams.has(data.id)) return;
      let markEnded = (): void => undefined;
      const ended = new Promise<void>((resolve) => {
        markEnded = resolve;
      });
      const entry: WaitingStream = {
        fileName: data.fileName,
        stream: data.stream,
        ended,
        markEnded,
        answered: false,
      };
      streams.set(data.id, entry);
      // Only now may the page open the URL (the navigation is an event of its own, in no order with this one).
      const port = event.ports[0];
      if (port !== undefined) {
        port.postMessage({
          type: 'coffer-download:stream-registered',
          id: data.id,
        } satisfies StreamRegisteredAnswer);
        port.close();
      }
      setTimeout(() => {
        if (!entry.answered) {
          streams.delete(data.id);
          void data.stream.cancel().catch(() => undefined);
          markEnded();
        }
      }, UNOPENED_TTL_MS);
      event.waitUntil(keepRunning(entry));
    } else {
      const entry = streams.get(data.id);
      if (entry !== undefined) event.waitUntil(keepRunning(entry));
    }
  });

  scope.addEventListener('fetch', (event) => {
    const url = new URL(event.request.url);
    if (url.origin !== scope.location.origin || !url.pathname.startsWith(STREAM_DOWNLOAD_PREFIX)) return;
    event.stopImmediatePropagation();
    const id = decodeURIComponent(url.pathname.slice(STREAM_DOWNLOAD_PREFIX.length).split('/')[0] ?? '');
    const entry = streams.get(id);
    if (entry === undefined || entry.answered) {
      event.respondWith(
        new Response('This download is no longer available.', {
          status: 404,
          headers: { 'Content-Type': 'text/plain; charset=utf-8' },
        }),
      );
      return;
    }
    entry.answered = true;
    const done = (): void => {
      streams.delete(id);
      entry.markEnded();
    };
    // Done, failed on the page's side, or cancelled in the browser: the worker may stop.
    event.respondWith(
      new Response(tracked(entry.stream, done), {
        headers: {
          'Content-Type': 'application/zip',
          'Content-Disposition': contentDisposition(entry.fileName),
          'Cache-Control': 'no-store',
          'X-Content-Type-Options': 'nosniff',
        },
      }),
    );
  });
}

/** The same stream, calling `onEnd` once however it ends (done, error, cancel). */
function tracked(stream: ReadableStream<Uint8Array>, onEnd: () => void): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          onEnd();
        } else controller.enqueue(value);
      } catch (error) {
        controller.error(error);
        onEnd();
      }
    },
    async cancel(reason) {
      onEnd();
      await reader.cancel(reason);
    },
  });
}
