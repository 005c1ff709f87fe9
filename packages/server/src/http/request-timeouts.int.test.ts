/**
 * Slow clients over a real socket: a body that trickles in is cut with a 408 (an ordinary request after
 * REQUEST_TIMEOUT_SECONDS, an upload below UPLOAD_MIN_BYTES_PER_SECOND over a window), while an upload
 * that is slow but steady runs to the end even though it takes longer than the request timeout.
 */
import { connect } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { encryptedSizeFor } from '@coffer/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../test/app-harness.js';
import type { TestApp } from '../test/app-harness.js';
import { dialectsUnderTest } from '../test/db.js';
import type { TestDatabase } from '../test/db.js';
import { createKey, startMultipart } from '../modules/files/files.test-helpers.js';

const sqlite = dialectsUnderTest.find((d) => d.name === 'sqlite');

/** Sends the head, then `body` in pieces of `piece` bytes every `everyMs`; resolves the answer's status. */
async function trickle(
  port: number,
  head: string,
  body: Buffer,
  piece: number,
  everyMs: number,
): Promise<{ status: number | null; closed: boolean }> {
  const socket: Socket = connect(port, '127.0.0.1');
  let received = '';
  const state = { closed: false };
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('close', () => (state.closed = true));
  socket.on('error', () => (state.closed = true));
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(head);
  for (let sent = 0; sent < body.length && !state.closed && received === ''; sent += piece) {
    socket.write(body.subarray(sent, sent + piece));
    await sleep(everyMs);
  }
  // Wait for the answer and the end of the connection (a ceiling, not a delay). A 200 keeps the
  // connection open for the next request, so that ends the wait too.
  const answered = () => received.startsWith('HTTP/1.1 200') && received.includes('\r\n\r\n');
  for (let waited = 0; !state.closed && !answered() && waited < 20_000; waited += 20) await sleep(20);
  socket.destroy();
  const match = /^HTTP\/1\.1 (\d{3})/.exec(received);
  return { status: match === null ? null : Number(match[1]), closed: state.closed };
}

describe('request timeouts', () => {
  let database: TestDatabase;
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    if (sqlite === undefined) throw new Error('no SQLite dialect');
    database = await sqlite.open();
    t = await startTestApp({
      database,
      env: {
        REQUEST_TIMEOUT_SECONDS: '1',
        UPLOAD_RATE_WINDOW_SECONDS: '1',
        UPLOAD_MIN_BYTES_PER_SECOND: '1000',
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
    await database.destroy();
  });

  it('cuts an unauthenticated webhook whose body trickles in', async () => {
    const body = Buffer.from(JSON.stringify({ id: 'evt_1', type: 'x', padding: 'p'.repeat(200) }));
    const head =
      'POST /api/payments/webhook HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n' +
      `stripe-signature: t=1,v1=x\r\ncontent-length: ${body.length}\r\n\r\n`;
    const started = Date.now();
    const res = await trickle(port, head, body, 1, 200);
    expect(res.status).toBe(408);
    expect(res.closed).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('cuts a part upload that brings less than the minimum rate', async () => {
    const keyId = await createKey(t, 'slowpoke');
    const size = 20_000;
    const upload = await startMultipart(t, 'slowpoke', { keyId, size });
    const body = Buffer.alloc(encryptedSizeFor(size), 3);
    const head =
      `PUT /api/users/uploads/multipart/${upload.uploadId}/part/1?objectKey=${encodeURIComponent(upload.objectKey)} HTTP/1.1\r\n` +
      `host: x\r\nauthorization: Bearer ${await t.tokenFor('slowpoke')}\r\n` +
      `content-type: application/octet-stream\r\ncontent-length: ${body.length}\r\n\r\n`;
    const res = await trickle(port, head, body, 1, 200);
    expect(res.status).toBe(408);
    expect(res.closed).toBe(true);
  });

  it('lets a slow but steady part upload finish, past the request timeout', async () => {
    const keyId = await createKey(t, 'steady');
    const size = 20_000;
    const upload = await startMultipart(t, 'steady', { keyId, size });
    const body = Buffer.alloc(encryptedSizeFor(size), 4);
    const head =
      `PUT /api/users/uploads/multipart/${upload.uploadId}/part/1?objectKey=${encodeURIComponent(upload.objectKey)} HTTP/1.1\r\n` +
      `host: x\r\nauthorization: Bearer ${await t.tokenFor('steady')}\r\n` +
      `content-type: application/octet-stream\r\ncontent-length: ${body.length}\r\n\r\n`;
    const started = Date.now();
    // ~8 KB/s: above the 1,000 B/s minimum, and ~2.5 s in all, longer than the 1 s request timeout.
    const res = await trickle(port, head, body, 800, 100);
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThan(1000);
  });
});
