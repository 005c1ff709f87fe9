/*
 * Coffer download service worker.
 *
 * Lets the page save a decrypted file of any size as an ordinary browser download, without
 * holding it in memory: the page registers a download here over a MessageChannel, then opens
 * /__coffer_download__/<id>/<name> in a hidden iframe; this worker answers that navigation with a
 * streamed attachment Response whose bytes the page sends slice by slice, only as far as this worker
 * asked for them (backpressure: at most READ_AHEAD_SLICES wait here). If the page reports an error, the stream is errored and the
 * browser marks the download failed instead of keeping a partial file as if it were complete.
 *
 * It answers ONLY its own /__coffer_download__/ URLs; every other request goes to the network
 * untouched. Protocol (mirrored in src/lib/transfers/save/download-sw-protocol.ts):
 *   page -> worker: {type: 'coffer-download:register', id, fileName, size, contentType} + port
 *                   {type: 'coffer-download:keepalive'}  (messages keep the worker alive)
 *                   {type: 'coffer-download:abort', id}  (fail that download: its sender is gone)
 *   worker -> page (port): {type: 'registered'} | {type: 'started'} | {type: 'pull'} | {type: 'cancelled'}
 *                   (each 'pull' allows exactly one more 'chunk' message)
 *   page -> worker (port): {type: 'chunk', bytes: ArrayBuffer} | {type: 'end'} | {type: 'error', message}
 */

const DOWNLOAD_PREFIX = '/__coffer_download__/';
/** A registered download whose URL is never opened is forgotten after this long. */
const REGISTRATION_TTL_MS = 60_000;
/**
 * Slices (512 KiB each from the crypto worker) this worker asks for ahead of the browser's writer:
 * at most this many wait here per download (4 MiB), whatever the file size.
 */
const READ_AHEAD_SLICES = 8;

/** id -> {port, fileName, size, contentType}; each entry is used by exactly one request. */
const registered = new Map();
/** id -> function that fails a download being streamed (the page's 'coffer-download:abort'). */
const streaming = new Map();

self.addEventListener('install', () => {
  // Nothing to cache; take over at once so the first download does not wait for a reload.
  void self.skipWaiting();
});

// No clients.claim(): the worker's scope is /__coffer_download__/ only, and it must never control
// the app's pages (their uploads would pass through it).

self.addEventListener('message', (event) => {
  const data = event.data;
  if (data === null || typeof data !== 'object') return;
  if (
    data.type === 'coffer-download:register' &&
    event.ports[0] !== undefined &&
    typeof data.id === 'string'
  ) {
    const port = event.ports[0];
    registered.set(data.id, {
      port,
      fileName: String(data.fileName),
      size: Number.isSafeInteger(data.size) && data.size >= 0 ? data.size : null,
      contentType: typeof data.contentType === 'string' ? data.contentType : '',
    });
    setTimeout(() => registered.delete(data.id), REGISTRATION_TTL_MS);
    port.postMessage({ type: 'registered' });
  }
  // The page lost whoever was sending the bytes (the crypto worker died after the port was handed
  // to it): fail the browser's download instead of leaving it "in progress" forever.
  if (data.type === 'coffer-download:abort' && typeof data.id === 'string') {
    registered.delete(data.id);
    streaming.get(data.id)?.();
  }
  // 'coffer-download:keepalive' needs no answer: receiving it is what keeps this worker running.
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== self.location.origin || !url.pathname.startsWith(DOWNLOAD_PREFIX)) return;
  event.respondWith(respond(url));
});

/** The streamed download for a registered id, or 404 if the id is unknown or already used. */
function respond(url) {
  const id = decodeURIComponent(url.pathname.slice(DOWNLOAD_PREFIX.length).split('/')[0] ?? '');
  const download = registered.get(id);
  registered.delete(id);
  if (download === undefined) {
    return new Response('This download is no longer available.', {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    });
  }
  const { port } = download;
  /** Slices asked of the page and not received yet. */
  let requested = 0;
  let controllerRef = null;
  // Keep up to READ_AHEAD_SLICES asked for or queued, so the browser writes one slice while the
  // next ones travel: one slice per round trip (worker -> this process -> the browser's writer ->
  // a new request) left every process waiting for the others in turn.
  const askForMore = () => {
    if (controllerRef === null) return;
    while ((controllerRef.desiredSize ?? 0) - requested > 0) {
      requested++;
      port.postMessage({ type: 'pull' });
    }
  };
  const finish = () => {
    controllerRef = null;
    streaming.delete(id);
    port.close();
  };
  const stream = new ReadableStream(
    {
      start(controller) {
        controllerRef = controller;
        streaming.set(id, () => {
          try {
            controller.error(new Error('The download stopped'));
          } catch {
            // Already closed or errored.
          }
          finish();
        });
        port.onmessage = (event) => {
          const message = event.data;
          try {
            if (message.type === 'chunk') {
              requested = Math.max(0, requested - 1);
              controller.enqueue(new Uint8Array(message.bytes));
            } else if (message.type === 'end') controller.close();
            else if (message.type === 'error') controller.error(new Error(String(message.message)));
            else return;
          } catch {
            // The browser already cancelled the stream; the page has been told.
          }
          if (message.type !== 'chunk') finish();
        };
        port.postMessage({ type: 'started' });
      },
      // Called when the queue has room (below READ_AHEAD_SLICES): ask the page for that many slices.
      // Each 'pull' is a credit for exactly one slice; the page never sends a slice without one.
      pull() {
        askForMore();
      },
      // The user cancelled the download in the browser.
      cancel() {
        port.postMessage({ type: 'cancelled' });
        finish();
      },
    },
    new CountQueuingStrategy({ highWaterMark: READ_AHEAD_SLICES }),
  );
  const headers = {
    'Content-Type': 'application/octet-stream',
    'Content-Disposition': contentDisposition(download.fileName),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  };
  if (download.size !== null) headers['Content-Length'] = String(download.size);
  return new Response(stream, { headers });
}

/** `attachment` with an ASCII fallback name and the exact UTF-8 name (RFC 6266 / RFC 5987). */
function contentDisposition(fileName) {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
