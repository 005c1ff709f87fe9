/**
 * The pages of the download floor benchmark (`download-floor-bench.ts`): each stage of the app's
 * encrypted download, alone, in a browser, against an ordinary download of the same bytes from the
 * same server. Served by `floor-server.ts` on an origin of its own; none of it is the app's code.
 *
 * - The page: registers the service worker (scope `/sw/`, so it never controls the page), starts a
 *   save by navigating a hidden iframe (as the app does), runs a dedicated worker.
 * - The service worker answers `/sw/save?mode=…&size=…` with a stream it makes in JavaScript:
 *   `constant` enqueues one 1 MiB buffer again and again (the service-worker save path alone);
 *   `readback` reads a 95 MiB file of the origin private file system back through one BYOB reader
 *   into pooled 1 MiB buffers, file after file, as the app's service worker reads each verified chunk
 *   (the save path and the read-back: no network, no cryptography); `slices8` reads the same file as
 *   `slice().arrayBuffer()` of 8 MiB (another way a service worker can read a file); `refetch` fetches
 *   the bytes from the server and passes each piece through JavaScript (the second pass of a design
 *   that fetches each chunk twice instead of keeping it on disk).
 * - The dedicated worker: `prepare` writes the 95 MiB file; `store` fetches `/bytes?size=` and
 *   writes it into a 95 MiB file with a synchronous access handle, a GMAC (AES-GCM over nothing, the
 *   256 KiB piece as additional data) per piece, as the app's crypto worker fetches, stores and
 *   verifies each chunk.
 */

export const FLOOR_CHUNK_BYTES = 95 * 1024 * 1024;

export const FLOOR_PAGE = `<!doctype html>
<html lang="en"><meta charset="utf-8"><title>Download floor</title><body><script>
globalThis.swReady = navigator.serviceWorker.register('/sw/worker.js', { scope: '/sw/' }).then(async (registration) => {
  const worker = registration.installing ?? registration.waiting ?? registration.active;
  if (worker.state !== 'activated') {
    await new Promise((resolve) => worker.addEventListener('statechange', () => { if (worker.state === 'activated') resolve(); }));
  }
});
globalThis.saveFrom = (href) => {
  const frame = document.createElement('iframe');
  frame.hidden = true;
  frame.src = href;
  document.body.append(frame);
};
globalThis.runWorker = (kind, size) => new Promise((resolve, reject) => {
  const worker = new Worker('/dedicated.js');
  worker.onmessage = (event) => { worker.terminate(); if (event.data.error) reject(new Error(event.data.error)); else resolve(event.data); };
  worker.onerror = (event) => { worker.terminate(); reject(new Error(event.message)); };
  worker.postMessage({ kind, size, chunk: ${FLOOR_CHUNK_BYTES} });
});
</script></body></html>`;

export const FLOOR_SERVICE_WORKER = `
const SLICE = 1024 * 1024;
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (!url.pathname.startsWith('/sw/save')) return;
  const size = Number(url.searchParams.get('size'));
  const mode = url.searchParams.get('mode');
  const body =
    mode === 'constant' ? constant(size) : mode === 'readback' ? readBack(size) : mode === 'refetch' ? refetch(size) : slices(size, 8 * SLICE);
  event.respondWith(new Response(body, { headers: {
    'Content-Type': 'application/octet-stream',
    'Content-Disposition': 'attachment; filename="' + mode + '.bin"',
    'Content-Length': String(size),
  } }));
});

async function chunkFile() {
  const root = await navigator.storage.getDirectory();
  return (await root.getFileHandle('chunk')).getFile();
}

function constant(size) {
  const bytes = new Uint8Array(SLICE).fill(0x5a);
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close();
      const n = Math.min(SLICE, size - sent);
      controller.enqueue(n === SLICE ? bytes : bytes.subarray(0, n));
      sent += n;
    },
  }, { highWaterMark: 4 });
}

// Pooled buffers: once the browser asks for more, it has taken every slice but the last one queued.
function readBack(size) {
  let sent = 0;
  let reader = null;
  let queued = [];
  const free = [];
  return new ReadableStream({
    async pull(controller) {
      const last = queued.pop();
      for (const buffer of queued) free.push(buffer.transfer());
      queued = last === undefined ? [] : [last];
      if (sent >= size) return controller.close();
      for (;;) {
        if (reader === null) reader = (await chunkFile()).stream().getReader({ mode: 'byob' });
        const want = Math.min(SLICE, size - sent);
        const { value, done } = await reader.read(new Uint8Array(free.pop() ?? new ArrayBuffer(SLICE), 0, want));
        if (done) {
          if (value !== undefined) free.push(value.buffer);
          reader = null;
          continue;
        }
        sent += value.length;
        queued.push(value.buffer);
        controller.enqueue(value);
        return;
      }
    },
  }, { highWaterMark: 1 });
}

// The bytes fetched from the server again, each piece passed through JavaScript (as a decryption would).
function refetch(size) {
  let reader = null;
  return new ReadableStream({
    async pull(controller) {
      reader ??= (await fetch('/bytes?size=' + size)).body.getReader();
      const { value, done } = await reader.read();
      if (done) return controller.close();
      controller.enqueue(value);
    },
  }, { highWaterMark: 1 });
}

function slices(size, sliceBytes) {
  let sent = 0;
  let file = null;
  let at = 0;
  return new ReadableStream({
    async pull(controller) {
      if (sent >= size) return controller.close();
      file ??= await chunkFile();
      if (at >= file.size) at = 0;
      const end = Math.min(file.size, at + sliceBytes, at + size - sent);
      const bytes = await file.slice(at, end).arrayBuffer();
      at = end;
      sent += bytes.byteLength;
      controller.enqueue(new Uint8Array(bytes));
    },
  }, { highWaterMark: 1 });
}
`;

export const FLOOR_DEDICATED_WORKER = `
onmessage = async (event) => {
  const { kind, size, chunk } = event.data;
  try {
    const root = await navigator.storage.getDirectory();
    if (kind === 'prepare') {
      const access = await (await root.getFileHandle('chunk', { create: true })).createSyncAccessHandle();
      const bytes = new Uint8Array(1024 * 1024).fill(0x5a);
      for (let at = 0; at < chunk; at += bytes.length) access.write(bytes.subarray(0, Math.min(bytes.length, chunk - at)), { at });
      access.truncate(chunk);
      access.close();
      postMessage({ done: true });
      return;
    }
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt']);
    const access = await (await root.getFileHandle('stored', { create: true })).createSyncAccessHandle();
    const response = await fetch('/bytes?size=' + size);
    const reader = response.body.getReader({ mode: 'byob' });
    let buffer = new ArrayBuffer(1024 * 1024);
    const iv = new Uint8Array(12);
    const view = new DataView(iv.buffer);
    let received = 0;
    let at = 0;
    let piece = 0;
    for (;;) {
      let filled = 0;
      let ended = false;
      while (filled < buffer.byteLength) {
        const { value, done } = await reader.read(new Uint8Array(buffer, filled));
        if (value !== undefined) buffer = value.buffer;
        if (done) { ended = true; break; }
        filled += value.length;
      }
      const bytes = new Uint8Array(buffer, 0, filled);
      if (at + filled > chunk) at = 0;
      access.write(bytes, { at });
      at += filled;
      for (let offset = 0; offset < filled; offset += 256 * 1024) {
        view.setUint32(0, piece++);
        await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: bytes.subarray(offset, Math.min(filled, offset + 256 * 1024)) }, key, new Uint8Array(0));
      }
      received += filled;
      if (ended) break;
    }
    access.close();
    postMessage({ received });
  } catch (error) {
    postMessage({ error: String(error) });
  }
};
`;
