/**
 * The download floor benchmark's server (`download-floor-bench.ts` starts it as a process of its
 * own, so its CPU is counted apart from the browser's): the fixture's page and workers, and
 * `/bytes?size=` — the first `size` bytes of the file named by its argument, read from disk in
 * 1 MiB pieces as the app's fs blob store reads a stored object, as an attachment. Prints
 * `LISTENING <port>`.
 */
import { createReadStream, statSync } from 'node:fs';
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
  const file = createReadStream(source, { start: 0, end: size - 1, highWaterMark: 1024 * 1024 });
  file.on('error', () => response.destroy());
  response.on('close', () => file.destroy());
  file.pipe(response);
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
