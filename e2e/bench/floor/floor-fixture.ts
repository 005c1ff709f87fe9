/**
 * The pages of the download floor benchmark (`download-floor-bench.ts`): each stage of the app's
 * encrypted download alone, and its two threads written plainly, in a browser, against an ordinary
 * download of the same bytes from the same server. Served by `floor-server.ts` on an origin of its
 * own; none of it is the app's code.
 *
 * - The page: registers the service worker (scope `/sw/`, so it never controls the page), starts a
 *   save by navigating a hidden iframe (as the app does), runs a dedicated worker alone
 *   (`runWorker`) or as the feed of a two-thread save (`startPipeline`).
 * - The service worker answers `/sw/save?mode=…&size=…` with a stream it makes in JavaScript, queued
 *   as the app's stream sink queues (full 1 MiB slices in pooled buffers, up to four waiting):
 *   `constant` enqueues one 1 MiB buffer again and again (the service-worker save path alone);
 *   `readback` reads a 95 MiB file of the origin private file system back through one BYOB reader,
 *   each slice filled whole, file after file, as the app's service worker reads each verified chunk
 *   (the save path and the read-back: no network, no cryptography); `slices8` reads the same file as
 *   `slice().arrayBuffer()` of 8 MiB (another way a service worker can read a file); `refetch` fetches
 *   the bytes from the server again, each piece copied into the slices (the second pass of a design
 *   that fetches each chunk twice instead of keeping it on disk, without its decryption); `pipeline`
 *   reads the chunk files the dedicated worker posts over a channel of their own, as `readback`
 *   (optionally with an AES-GCM call per 256 KiB, as the app's decrypt pass) or as `slices8`; `posted`
 *   enqueues the pieces the dedicated worker posts it (`post`).
 * - The dedicated worker: `prepare` writes the 95 MiB file; `store` fetches `/bytes?size=` and
 *   writes it into a 95 MiB file with a synchronous access handle, a GMAC (AES-GCM over nothing, the
 *   256 KiB piece as additional data) per piece, as the app's crypto worker fetches, stores and
 *   verifies each chunk; `fetch` only reads the bytes (one reused 1 MiB buffer, BYOB), nothing kept:
 *   the least a page does to receive them; `feed` does the same into a file per chunk (chunk i once chunk i - 2 was
 *   taken, as the app's crypto worker) and posts each to the service worker; `post` reads the 95 MiB
 *   file with a synchronous access handle and posts it to the service worker 1 MiB at a time.
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
// The two threads of the app's download: the dedicated worker fetches and stores each chunk in a file
// and posts it to the service worker over a channel of their own, which reads it back into the save.
globalThis.startPipeline = async (size, crypto, read = 'byob') => {
  const registration = await navigator.serviceWorker.getRegistration('/sw/');
  const channel = new MessageChannel();
  const feed = String(Math.random()).slice(2);
  registration.active.postMessage({ feed }, [channel.port1]);
  // A worker that fails before it feeds anything tells the service worker too, which fails the save.
  const failed = (message) => {
    registration.active.postMessage({ feed, error: message });
    return new Error(message);
  };
  const worker = new Worker('/dedicated.js');
  globalThis.pipelineDone = new Promise((resolve, reject) => {
    worker.onmessage = (event) => { worker.terminate(); if (event.data.error) reject(failed(event.data.error)); else resolve(event.data); };
    worker.onerror = (event) => { worker.terminate(); reject(failed(event.message)); };
  });
  const posted = read === 'posted';
  worker.postMessage({ kind: posted ? 'post' : 'feed', size, chunk: ${FLOOR_CHUNK_BYTES}, crypto }, [channel.port2]);
  saveFrom('/sw/save?mode=' + (posted ? 'posted' : 'pipeline') + '&size=' + size + '&feed=' + feed + '&crypto=' + (crypto ? 1 : 0) + '&read=' + read);
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
    mode === 'constant' ? constant(size)
    : mode === 'readback' ? readBack(size)
    : mode === 'refetch' ? refetch(size)
    : mode === 'pipeline' && url.searchParams.get('read') === 'slices8' ? pipelineSlices8(size, url.searchParams.get('feed'))
    : mode === 'posted' ? postedSlices(size, url.searchParams.get('feed'))
    : mode === 'pipeline' ? pipeline(size, url.searchParams.get('feed'), url.searchParams.get('crypto') === '1')
    : mode === 'slices8' ? slices(size, 8 * SLICE)
    : null;
  if (body === null) {
    event.respondWith(new Response('no such mode', { status: 404 }));
    return;
  }
  event.respondWith(new Response(body, { headers: {
    'Content-Type': 'application/octet-stream',
    'Content-Disposition': 'attachment; filename="' + mode + '.bin"',
    'Content-Length': String(size),
  } }));
});

// The feeds' ports, by id: the page posts one before it starts the save that reads from it, and an
// error instead where its dedicated worker failed before feeding.
const feeds = new Map();
function feedPort(id) {
  let feed = feeds.get(id);
  if (feed === undefined) {
    let resolve;
    let reject;
    feed = { port: new Promise((ok, no) => { resolve = ok; reject = no; }), resolve, reject };
    feed.port.catch(() => undefined);
    feeds.set(id, feed);
  }
  return feed;
}
self.addEventListener('message', (event) => {
  if (typeof event.data?.feed !== 'string') return;
  if (typeof event.data.error === 'string') feedPort(event.data.feed).reject(new Error(event.data.error));
  else feedPort(event.data.feed).resolve(event.ports[0]);
});

// What the dedicated worker posts over the feed \`id\`: \`next()\` answers its chunks in order
// ({ index, file }) and throws once the worker failed, \`taken(index)\` tells it a chunk was read.
function feedChunks(id) {
  const chunks = [];
  let wake = null;
  let failed = null;
  const feed = feedPort(id);
  const port = feed.port.then((p) => {
    p.onmessage = (event) => {
      if (event.data.error) failed = new Error(event.data.error);
      else chunks.push(event.data);
      wake?.();
    };
    return p;
  });
  port.catch(() => undefined);
  // An error the page posts after the port arrived (the worker failed later) ends the wait too.
  self.addEventListener('message', (event) => {
    if (event.data?.feed === id && typeof event.data.error === 'string') {
      failed = new Error(event.data.error);
      wake?.();
    }
  });
  return {
    async next() {
      await port;
      while (chunks.length === 0) {
        if (failed !== null) throw failed;
        await new Promise((resolve) => { wake = resolve; });
      }
      return chunks.shift();
    },
    async taken(index) {
      (await port).postMessage({ taken: index });
    },
  };
}

function pipeline(size, id, decrypting) {
  const feed = feedChunks(id);
  const key = crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt']);
  const iv = new Uint8Array(12);
  const files = filesInSlices(size, () => feed.next(), (chunk) => feed.taken(chunk.index));
  return pooledSlices(async (buffer) => {
    const slice = await files.fill(buffer);
    if (slice === null) return null;
    if (decrypting) {
      const calls = [];
      for (let at = 0; at < slice.length; at += 256 * 1024) {
        calls.push(crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await key, slice.subarray(at, Math.min(slice.length, at + 256 * 1024))));
      }
      let at = 0;
      for (const call of calls) {
        const output = new Uint8Array(await call);
        slice.set(output.subarray(0, output.length - 16), at);
        at += output.length - 16;
      }
    }
    // The last chunk is taken once its last slice is (no read reaches its end).
    if (files.done()) await feed.taken(files.current().index);
    return slice;
  });
}

// The dedicated worker's 1 MiB pieces as it posts them over the feed (each a transferred
// ArrayBuffer), enqueued as they are; a credit back for each.
function postedSlices(size, id) {
  const feed = feedPort(id);
  const queue = [];
  let wake = null;
  let port = null;
  let received = 0;
  return new ReadableStream({
    async pull(controller) {
      if (port === null) {
        port = await feed.port;
        port.onmessage = (event) => { queue.push(event.data); wake?.(); };
      }
      if (received >= size) return controller.close();
      while (queue.length === 0) await new Promise((resolve) => { wake = resolve; });
      const bytes = queue.shift();
      received += bytes.length;
      controller.enqueue(bytes);
      port.postMessage({ credit: 1 });
    },
  }, { highWaterMark: QUEUED });
}

// The same two threads, each chunk file read as \`slice().arrayBuffer()\` of 8 MiB, each enqueued
// as it is (as \`slices8\`): the other way of reading a file back, no cryptography.
function pipelineSlices8(size, id) {
  const feed = feedChunks(id);
  return fileSlices(size, 8 * SLICE, () => feed.next(), (chunk) => feed.taken(chunk.index));
}

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
  }, { highWaterMark: QUEUED });
}

// As the app's stream sink: full 1 MiB slices in pooled buffers, up to QUEUED of them waiting for the
// browser. A slice the browser has taken is done with once it took a later one, so every taken slice
// but the last comes back to the pool (its memory moved to a new ArrayBuffer).
const QUEUED = 4;
function pooledSlices(fill) {
  const free = [];
  let enqueued = [];
  return new ReadableStream({
    async pull(controller) {
      const waiting = QUEUED - controller.desiredSize;
      const taken = enqueued.length - waiting;
      for (const buffer of enqueued.slice(0, Math.max(0, taken - 1))) free.push(buffer.transfer());
      enqueued = enqueued.slice(Math.max(0, taken - 1));
      const slice = await fill(free.pop() ?? new ArrayBuffer(SLICE));
      if (slice === null) return controller.close();
      enqueued.push(slice.buffer);
      controller.enqueue(slice);
    },
  }, { highWaterMark: QUEUED });
}

// Slices of \`size\` bytes in all, each filled whole from files read one after the other, each
// through one BYOB reader (as readSlicesInto): \`next()\` answers the next { file, … }, \`ended(it)\`
// runs once one was read to its end.
function filesInSlices(size, next, ended) {
  let sent = 0;
  let reader = null;
  let current = null;
  let readSinceOpen = 0;
  return {
    current: () => current,
    done: () => sent >= size,
    async fill(buffer) {
      if (sent >= size) return null;
      const want = Math.min(buffer.byteLength, size - sent);
      let memory = buffer;
      let filled = 0;
      while (filled < want) {
        if (reader === null) {
          current = await next();
          reader = current.file.stream().getReader({ mode: 'byob' });
          readSinceOpen = 0;
        }
        const { value, done } = await reader.read(new Uint8Array(memory, filled, want - filled));
        if (value !== undefined) memory = value.buffer;
        if (done) {
          if (readSinceOpen === 0) throw new Error('an empty file');
          await ended(current);
          reader = null;
          continue;
        }
        filled += value.length;
        readSinceOpen += value.length;
      }
      sent += filled;
      return new Uint8Array(memory, 0, filled);
    },
  };
}

// The chunk file read back, again and again.
function readBack(size) {
  const files = filesInSlices(size, async () => ({ file: await chunkFile() }), () => undefined);
  return pooledSlices((buffer) => files.fill(buffer));
}

// The bytes fetched from the server again, each piece copied into the slices (as the app's sink packs
// each decrypted piece).
function refetch(size) {
  let reader = null;
  let piece = null;
  return pooledSlices(async (buffer) => {
    reader ??= (await fetch('/bytes?size=' + size)).body.getReader();
    const slice = new Uint8Array(buffer);
    let filled = 0;
    while (filled < SLICE) {
      if (piece === null || piece.length === 0) {
        const { value, done } = await reader.read();
        if (done) break;
        piece = value;
      }
      const n = Math.min(piece.length, SLICE - filled);
      slice.set(piece.subarray(0, n), filled);
      piece = piece.subarray(n);
      filled += n;
    }
    return filled === 0 ? null : slice.subarray(0, filled);
  });
}

// The chunk file read as \`slice().arrayBuffer()\` of \`sliceBytes\`, again and again.
function slices(size, sliceBytes) {
  return fileSlices(size, sliceBytes, async () => ({ file: await chunkFile() }), () => undefined);
}

// \`size\` bytes in all from files read one after the other, each as \`slice().arrayBuffer()\` of
// \`sliceBytes\`, each enqueued as it is: \`next()\` answers the next { file, … }, \`ended(it)\` runs
// once one was read to its end (the last one too, once its last slice is queued).
function fileSlices(size, sliceBytes, next, ended) {
  let sent = 0;
  let current = null;
  let at = 0;
  return new ReadableStream({
    async pull(controller) {
      if (sent >= size) return controller.close();
      if (current === null) {
        current = await next();
        at = 0;
        if (current.file.size === 0) throw new Error('an empty file');
      }
      const end = Math.min(current.file.size, at + sliceBytes, at + size - sent);
      const bytes = await current.file.slice(at, end).arrayBuffer();
      at = end;
      sent += bytes.byteLength;
      controller.enqueue(new Uint8Array(bytes));
      if (at >= current.file.size || sent >= size) {
        await ended(current);
        current = null;
      }
    },
  }, { highWaterMark: QUEUED });
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
    if (kind === 'post') {
      // The prepared chunk file read with a synchronous access handle, 1 MiB at a time, each piece
      // posted (transferred) to the service worker: at most 8 ahead of what it took.
      const port = event.ports[0];
      const access = await (await root.getFileHandle('chunk')).createSyncAccessHandle();
      const length = access.getSize();
      let credit = 8;
      let wake = null;
      port.onmessage = (message) => { credit += message.data.credit; wake?.(); };
      let sent = 0;
      let at = 0;
      while (sent < size) {
        while (credit === 0) await new Promise((resolve) => { wake = resolve; });
        credit -= 1;
        const bytes = new Uint8Array(Math.min(1024 * 1024, size - sent, length - at));
        access.read(bytes, { at });
        at = at + bytes.length >= length ? 0 : at + bytes.length;
        sent += bytes.length;
        port.postMessage(bytes, [bytes.buffer]);
      }
      access.close();
      postMessage({ received: sent });
      return;
    }
    const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt']);
    if (kind === 'feed') {
      const port = event.ports[0];
      try {
        await feed(root, port, size, chunk, event.data.crypto ? key : null);
      } catch (error) {
        port.postMessage({ error: String(error) });
        throw error;
      }
      return;
    }
    // \`store\` keeps each piece and authenticates it; \`fetch\` only reads it.
    const keep = kind === 'store';
    const access = keep ? await (await root.getFileHandle('stored', { create: true })).createSyncAccessHandle() : null;
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
      if (keep) access.write(bytes, { at });
      at += filled;
      for (let offset = 0; keep && offset < filled; offset += 256 * 1024) {
        view.setUint32(0, piece++);
        await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: bytes.subarray(offset, Math.min(filled, offset + 256 * 1024)) }, key, new Uint8Array(0));
      }
      received += filled;
      if (ended) break;
    }
    access?.close();
    postMessage({ received });
  } catch (error) {
    postMessage({ error: String(error) });
  }
};

// As the app's crypto worker feeds the service worker: chunk i is fetched (one request for the whole
// object, read in 1 MiB pieces) and stored in a file of its own once chunk i - 2 was taken, then posted
// as a File; with a key, one GMAC per 256 KiB piece as it is stored.
async function feed(root, port, size, chunk, key) {
  let takenUpTo = -1;
  let wake = null;
  port.onmessage = (event) => { takenUpTo = Math.max(takenUpTo, event.data.taken); wake?.(); };
  const taken = async (index) => { while (takenUpTo < index) await new Promise((resolve) => { wake = resolve; }); };
  const response = await fetch('/bytes?size=' + size);
  const reader = response.body.getReader({ mode: 'byob' });
  let buffer = new ArrayBuffer(1024 * 1024);
  const iv = new Uint8Array(12);
  const count = Math.ceil(size / chunk);
  let received = 0;
  for (let index = 0; index < count; index++) {
    await taken(index - 2);
    if (index >= 2) await root.removeEntry('feed-' + (index - 2));
    const handle = await root.getFileHandle('feed-' + index, { create: true });
    const access = await handle.createSyncAccessHandle();
    access.truncate(0);
    const length = Math.min(chunk, size - index * chunk);
    for (let at = 0; at < length;) {
      let filled = 0;
      const want = Math.min(buffer.byteLength, length - at);
      while (filled < want) {
        const { value, done } = await reader.read(new Uint8Array(buffer, filled, want - filled));
        if (value !== undefined) buffer = value.buffer;
        if (done) throw new Error('the response ended early');
        filled += value.length;
      }
      const bytes = new Uint8Array(buffer, 0, filled);
      access.write(bytes, { at });
      if (key !== null) {
        for (let offset = 0; offset < filled; offset += 256 * 1024) {
          await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: bytes.subarray(offset, Math.min(filled, offset + 256 * 1024)) }, key, new Uint8Array(0));
        }
      }
      at += filled;
      received += filled;
    }
    access.close();
    port.postMessage({ index, file: await handle.getFile() });
  }
  await taken(count - 1);
  for (let index = Math.max(0, count - 2); index < count; index++) await root.removeEntry('feed-' + index);
  postMessage({ received });
}
`;
