/**
 * The download floor benchmark's server (`download-floor-bench.ts` starts it as a process of its
 * own, so its CPU is counted apart from the browser's): the fixture's page and workers, and
 * `/bytes?size=` — that many bytes from one 1 MiB buffer in memory, as an attachment (no disk read,
 * so the ordinary download is the fastest this server can give). Prints `LISTENING <port>`.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FLOOR_DEDICATED_WORKER, FLOOR_PAGE, FLOOR_SERVICE_WORKER } from './floor-fixture.js';

const SLICE = Buffer.alloc(1024 * 1024, 0x5a);
/** Sizes the benchmark asks for: up to 64 GiB. */
const MAX_BYTES = 64 * 1024 ** 3;

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
  let sent = 0;
  const pump = (): void => {
    while (sent < size) {
      const n = Math.min(SLICE.length, size - sent);
      sent += n;
      if (!response.write(n === SLICE.length ? SLICE : SLICE.subarray(0, n))) {
        response.once('drain', pump);
        return;
      }
    }
    response.end();
  };
  pump();
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
