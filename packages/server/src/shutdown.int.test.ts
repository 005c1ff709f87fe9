/**
 * SIGTERM on a real server process (`main.ts` in a child process, SQLite and the fs store): what a
 * rolling restart behind a proxy relies on. Running transfers finish, new work is refused at once, and
 * the process exits, by itself when the transfers are done or when SHUTDOWN_GRACE_SECONDS runs out.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileListItem } from '@coffer/contracts';
import { encryptedSizeFor } from '@coffer/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildKeyRequest, encryptionInfoFor } from './test/factories.js';
import { formHead, killHard, startServer, streamingRequest } from './test/server-process.js';
import type { Running } from './test/server-process.js';
import { startTestIssuer, userClaims } from './test/test-issuer.js';
import type { TestIssuer } from './test/test-issuer.js';

const MiB = 1024 * 1024;
const BOUNDARY = 'shutdownboundary';
const TAIL = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

describe('SIGTERM on a running server', () => {
  let issuer: TestIssuer;
  let dataDir: string;
  let server: Running | undefined;
  let auth: Record<string, string>;

  beforeAll(async () => {
    issuer = await startTestIssuer();
    auth = { authorization: `Bearer ${await issuer.mintToken(userClaims('drain'))}` };
  });
  afterEach(async () => {
    if (server?.process.exitCode === null && server.process.signalCode === null) await killHard(server);
    rmSync(dataDir, { recursive: true, force: true });
  });
  afterAll(() => issuer.close());

  async function start(graceSeconds: number): Promise<Running> {
    dataDir = mkdtempSync(join(tmpdir(), 'coffer-shutdown-'));
    server = await startServer({
      DATA_DIR: dataDir,
      WEB_DIST_DIR: join(dataDir, 'no-web-build'),
      PUBLIC_URL: 'http://coffer.test',
      OIDC_ISSUER: issuer.issuer,
      OIDC_AUDIENCE: issuer.audience,
      DATABASE_URL: '',
      SHUTDOWN_GRACE_SECONDS: String(graceSeconds),
    });
    return server;
  }

  function fields(keyId: string, size: number): Record<string, string> {
    return {
      name: 'doc.bin',
      contentType: 'application/octet-stream',
      size: String(size),
      isEncrypted: 'true',
      encryptionInfo: JSON.stringify(encryptionInfoFor(keyId)),
    };
  }

  /** A key and a stored 4 MiB file (ciphertext bytes all 1), ready to download. */
  async function storedFile(running: Running): Promise<{ keyId: string; file: FileListItem }> {
    const key = await fetch(`${running.base}/api/users/keys`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(await buildKeyRequest()),
    });
    expect(key.status).toBe(201);
    const { keyId } = (await key.json()) as { keyId: string };
    const size = 4 * MiB;
    const stored = await fetch(`${running.base}/api/users/uploads/direct`, {
      method: 'POST',
      headers: { ...auth, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: Buffer.concat([
        formHead(BOUNDARY, fields(keyId, size)),
        Buffer.alloc(encryptedSizeFor(size), 1),
        TAIL,
      ]),
    });
    expect(stored.status).toBe(201);
    return { keyId, file: (await stored.json()) as FileListItem };
  }

  /** A download whose first bytes arrived, paused: a transfer in progress. */
  async function pausedDownload(running: Running, fileId: string): Promise<IncomingMessage> {
    const download = await new Promise<IncomingMessage>((resolve, reject) => {
      request(`${running.base}/api/users/files/${fileId}/download`, { headers: auth }, resolve)
        .on('error', reject)
        .end();
    });
    expect(download.statusCode).toBe(200);
    download.pause();
    await once(download, 'readable');
    return download;
  }

  async function refusesNewConnections(running: Running): Promise<void> {
    // Wait for the state, with a ceiling: the signal is handled asynchronously.
    const deadline = Date.now() + 10_000;
    for (;;) {
      const refused = await fetch(`${running.base}/api/health`).then(
        () => false,
        () => true,
      );
      if (refused) return;
      if (Date.now() > deadline) throw new Error('still accepting connections after SIGTERM');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('lets a running upload and download finish, refuses new requests, then exits 0', async () => {
    const running = await start(60);
    const { keyId, file } = await storedFile(running);

    // A request whose headers are still arriving when the signal comes (sent now, so the server has read
    // them long before): its connection is busy, so it stays open, and the request is answered, with a refusal.
    const late = connect(Number(new URL(running.base).port), '127.0.0.1');
    await once(late, 'connect');
    late.write('GET /api/health HTTP/1.1\r\nHost: coffer.test\r\n');
    const lateAnswer = new Promise<string>((resolve) => {
      let text = '';
      late.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      late.on('close', () => {
        resolve(text);
      });
    });

    const uploadSize = 12 * MiB;
    const head = formHead(BOUNDARY, fields(keyId, uploadSize));
    const upload = streamingRequest(
      `${running.base}/api/users/uploads/direct`,
      {
        method: 'POST',
        headers: {
          ...auth,
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'content-length': String(head.length + encryptedSizeFor(uploadSize) + TAIL.length),
        },
      },
      head,
      encryptedSizeFor(uploadSize),
      4 * MiB,
    );
    await upload.sent;
    const download = await pausedDownload(running, file.fileId);
    const exited = once(running.process, 'exit');
    running.process.kill('SIGTERM');
    await refusesNewConnections(running);

    late.end('\r\n');
    expect((await lateAnswer).split('\r\n')[0]).toBe('HTTP/1.1 503 Service Unavailable');

    // The upload's remaining bytes go through, and it is stored.
    const rest = encryptedSizeFor(uploadSize) - 4 * MiB;
    upload.req.end(Buffer.concat([Buffer.alloc(rest, 2), TAIL]));
    const uploaded = await upload.response;
    expect(uploaded?.statusCode).toBe(201);
    uploaded?.resume();

    // The download finishes whole.
    download.resume();
    let received = 0;
    let allOnes = true;
    for await (const chunk of download as AsyncIterable<Buffer>) {
      received += chunk.length;
      if (chunk.some((byte) => byte !== 1)) allOnes = false;
    }
    expect(received).toBe(encryptedSizeFor(4 * MiB));
    expect(allOnes).toBe(true);

    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
  }, 120_000);

  it('exits when the grace period ends with a transfer still running', async () => {
    const running = await start(2);
    const { file } = await storedFile(running);
    const download = await pausedDownload(running, file.fileId);
    download.on('error', () => undefined);

    const exited = once(running.process, 'exit');
    const signalled = Date.now();
    running.process.kill('SIGTERM');
    const [code] = (await exited) as [number | null];
    expect(code).toBe(1);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(1900);
    download.destroy();
  }, 120_000);
});
