/**
 * The download floor benchmark's server (`download-floor-bench.ts` starts it as a process of its
 * own, so its CPU is counted apart from the browser's): the fixture's page and workers, and
 * `/bytes?size=` — the first `size` bytes of the file named by its argument, read from disk in
 * 1 MiB pieces into three reused buffers as the app's fs blob store reads a stored object for a
 * download, as an attachment. Prints `LISTENING <port>`.
 */
import { statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FLOOR_DEDICATED_WORKER, FLOOR_PAGE, FLOOR_SERVICE_WORKER } from './floor-fixture.js';

const [, , source = ''] = process.argv;
if (source === '') throw new Error('usage: floor-server.ts <file of the bytes to serve>');
const MAX_BYTES = statSync(source).size;

const STATIC: Record<string, readonly [type: string, body: string]> = {
  '/': ['text/html; charset=utf-8', FLOOR_PAGE],
  '/sw/worker.js': ['text/javascript', FLOOR_SERVICE_WORKER],
  '/dedicated.js': ['text/javascript', FLOOR_DEDICATED_WORKER],
};

function sendBytes(response: ServerResponse, size: number): void {
  response.writeHead(200, {
    'Content-Type': 'application/octet-stream',
    'Content-Length': String(size),
    'Content-Disposition': 'attachment; filename="plain.bin"',
  });
  if (size === 0) {
    response.end();
    return;
  }
  writeBytes(response, size).catch(() => response.destroy());
}

/** A buffer is filled again only once the response has written it (its write's callback). */
async function writeBytes(response: ServerResponse, size: number): Promise<void> {
  const file = await open(source, 'r');
  try {
    const buffers = Array.from({ length: 3 }, () => Buffer.allocUnsafeSlow(1024 * 1024));
    const written: Promise<void>[] = [];
    for (let at = 0, i = 0; at < size && !response.destroyed; i++) {
      if (written.length === buffers.length) await written.shift();
      const buffer = buffers[i % buffers.length];
      if (buffer === undefined) throw new Error('no buffer');
      const { bytesRead } = await file.read(buffer, 0, Math.min(buffer.length, size - at), at);
      if (bytesRead === 0) throw new Error('the file is shorter than asked');
      at += bytesRead;
      written.push(
        new Promise((resolve, reject) => {
          response.write(buffer.subarray(0, bytesRead), (error) => {
            if (error) reject(error);
            else resolve();
          });
        }),
      );
    }
    await Promise.all(written);
    response.end();
  } finally {
    await file.close();
  }
}

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const found = STATIC[url.pathname];
  if (found !== undefined) {
    response.writeHead(200, { 'Content-Type': found[0], 'Cache-Control': 'no-store' });
    response.end(found[1]);
    return;
  }
  const size = Number(url.searchParams.get('size'));
  if (url.pathname === '/bytes' && Number.isSafeInteger(size) && size >= 0 && size <= MAX_BYTES) {
    sendBytes(response, size);
    return;
  }
  response.writeHead(404, { 'Content-Type': 'text/plain' });
  response.end('not found');
});

server.listen(0, '127.0.0.1', () => {
  console.log(`LISTENING ${(server.address() as AddressInfo).port}`);
});
