/**
 * A real server process for tests that signal or kill it, on a free port, with helpers to stream a
 * request body at a chosen pace. The process runs `main.ts` under tsx, or, when
 * COFFER_TEST_BUILT_SERVER=1 (`npm test` sets it: it builds first), the built `dist/main.js` that
 * `npm start` runs: the same code, without tsx compiling the server again at every start (crash
 * recovery and shutdown start it eight times: 56 CPU-s under tsx, 31 built, 27 Nov 2026).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..');
const BUILT = process.env.COFFER_TEST_BUILT_SERVER === '1';
const MAIN = BUILT ? join(SRC, '..', 'dist', 'main.js') : join(SRC, 'main.ts');
const MiB = 1024 * 1024;

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

export interface Running {
  process: ChildProcess;
  base: string;
}

/** Starts the server (`main.ts`, or `dist/main.js`: see above) in its own process and waits until it answers. */
export async function startServer(env: Record<string, string>): Promise<Running> {
  if (BUILT && !existsSync(MAIN)) {
    throw new Error(`COFFER_TEST_BUILT_SERVER=1 but ${MAIN} is missing: build first`);
  }
  const port = await freePort();
  const child = spawn(process.execPath, BUILT ? [MAIN] : ['--import', 'tsx', MAIN], {
    cwd: dirname(MAIN),
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  // Wait for the state (it answers), with a ceiling.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { process: child, base };
    if (Date.now() > deadline) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function killHard(running: Running): Promise<void> {
  const exited = once(running.process, 'exit');
  running.process.kill('SIGKILL');
  await exited;
}

/** Writes `total` bytes of body after `head`, and resolves once `until` bytes were taken by the server. */
export function streamingRequest(
  url: string,
  options: { method: string; headers: Record<string, string> },
  head: Buffer,
  total: number,
  until: number,
): { req: ClientRequest; sent: Promise<void>; response: Promise<IncomingMessage | null> } {
  const req = request(url, options);
  const response = new Promise<IncomingMessage | null>((resolve) => {
    req.on('response', resolve);
    req.on('error', () => {
      resolve(null);
    });
  });
  const sent = (async () => {
    const block = Buffer.alloc(MiB, 7);
    const write = (chunk: Buffer) =>
      new Promise<void>((resolve, reject) => {
        req.write(chunk, (err) => {
          if (err) reject(err);
          else resolve();
        });
      });
    await write(head);
    // The write callback fires once the bytes are handed to the socket; with backpressure that means
    // the server is reading: the state the kill must hit.
    for (let written = 0; written < Math.min(until, total); written += MiB) await write(block);
  })();
  return { req, sent, response };
}

export function formHead(boundary: string, fields: Record<string, string>): Buffer {
  let text = '';
  for (const [name, value] of Object.entries(fields)) {
    text += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  }
  text +=
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\n` +
    'Content-Type: application/octet-stream\r\n\r\n';
  return Buffer.from(text);
}
