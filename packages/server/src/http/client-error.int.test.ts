/**
 * Requests Node's HTTP parser refuses before any route sees them are answered in the API's error shape
 * `{code, message}` (found by the fuzz test: a raw emoji in the path got Fastify's `{error, statusCode}`).
 */
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../test/app-harness.js';
import type { TestApp } from '../test/app-harness.js';
import { dialectsUnderTest } from '../test/db.js';
import type { TestDatabase } from '../test/db.js';

const sqlite = dialectsUnderTest.find((d) => d.name === 'sqlite');

/** Writes `raw` on a fresh connection and resolves everything the server sent until it closed. */
function exchange(port: number, raw: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    socket.on('connect', () => socket.write(raw));
  });
}

function answerOf(raw: string): { status: number; body: unknown } {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), body: JSON.parse(body) };
}

describe('requests the HTTP parser refuses', () => {
  let database: TestDatabase;
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    if (sqlite === undefined) throw new Error('no sqlite');
    database = await sqlite.open();
    t = await startTestApp({ database });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
    await database.destroy();
  });

  it('a raw non-ASCII byte in the request line: 400 {code, message}', async () => {
    const raw = await exchange(
      port,
      Buffer.from('GET /api/users/files/😀 HTTP/1.1\r\nhost: x\r\n\r\n', 'utf8'),
    );
    expect(answerOf(raw)).toEqual({
      status: 400,
      body: { code: 'VALIDATION_FAILED', message: 'Malformed HTTP request' },
    });
  });

  it('a broken header line: 400 {code, message}', async () => {
    const raw = await exchange(port, Buffer.from('GET /api/health HTTP/1.1\r\nno colon here\r\n\r\n'));
    expect(answerOf(raw)).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
  });

  it('headers larger than Node accepts: 431 {code, message}', async () => {
    const big = `x-big: ${'a'.repeat(20_000)}\r\n`;
    const raw = await exchange(port, Buffer.from(`GET /api/health HTTP/1.1\r\nhost: x\r\n${big}\r\n`));
    expect(answerOf(raw)).toMatchObject({ status: 431, body: { code: 'VALIDATION_FAILED' } });
  });
});
