import { once } from 'node:events';
import { request } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FileListItem } from '@coffer/contracts';
import { encryptedSizeFor } from '@coffer/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/app-harness.js';
import type { TestApp } from '../../test/app-harness.js';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { buildKeyRequest, encryptionInfoFor } from '../../test/factories.js';
import { startIdpTestApp } from '../../test/idp-harness.js';
import type { IdpTestApp } from '../../test/idp-harness.js';
import { formHead, freePort } from '../../test/server-process.js';

const BOUNDARY = 'metricsboundary';
const DOWNLOAD = '/api/users/files/:id/download';

/** The value of one sample line, e.g. `name{a="b"}`; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe.each(dialectsUnderTest)('Prometheus metrics ($name, $backend)', ({ open, backend }) => {
  let database: TestDatabase;
  let t: TestApp;
  let base: string;
  let metricsUrl: string;
  let auth: Record<string, string>;

  beforeAll(async () => {
    database = await open();
    const metricsPort = await freePort();
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    t = await startTestApp({
      database,
      env: { METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' },
    });
    // Real sockets, so bytes are counted as they cross the wire.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    auth = { authorization: `Bearer ${await t.tokenFor('meg')}` };
  });
  afterAll(async () => {
    await t.close();
    await database.destroy();
  });

  const scrape = async () => {
    const res = await fetch(metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    return res.text();
  };

  it('counts requests, latency and bytes by route template, transfers running, sweeps and the pool', async () => {
    const key = await fetch(`${base}/api/users/keys`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(await buildKeyRequest()),
    });
    const { keyId } = (await key.json()) as { keyId: string };
    // Larger than the loopback socket buffers, so the download is still running when scraped.
    const size = 24 * 1024 * 1024;
    const body = Buffer.concat([
      formHead(BOUNDARY, {
        name: 'm.bin',
        contentType: 'application/octet-stream',
        size: String(size),
        isEncrypted: 'true',
        encryptionInfo: JSON.stringify(encryptionInfoFor(keyId)),
      }),
      Buffer.alloc(encryptedSizeFor(size), 3),
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]);
    const stored = await fetch(`${base}/api/users/uploads/direct`, {
      method: 'POST',
      headers: { ...auth, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body,
    });
    expect(stored.status).toBe(201);
    const file = (await stored.json()) as FileListItem;

    // A download in progress shows as one.
    const download = await new Promise<IncomingMessage>((resolve, reject) => {
      request(`${base}/api/users/files/${file.fileId}/download`, { headers: auth }, resolve)
        .on('error', reject)
        .end();
    });
    expect(download.statusCode).toBe(200);
    download.pause();
    await once(download, 'readable');
    const during = await scrape();
    expect(sample(during, 'coffer_transfers_in_progress{direction="download"}')).toBe(1);
    expect(sample(during, 'coffer_transfers_in_progress{direction="upload"}')).toBe(0);
    download.resume();
    let downloaded = 0;
    for await (const chunk of download as AsyncIterable<Buffer>) downloaded += chunk.length;
    expect(downloaded).toBe(encryptedSizeFor(size));
    expect((await fetch(`${base}/api/no/such/route`)).status).toBe(404);

    // A request is counted when the server sees its response finish, which can come after the client
    // has read the last byte (seen at load 25: the download not counted yet): wait for that state.
    await expect
      .poll(
        async () => {
          const now = await scrape();
          return [
            sample(now, `coffer_http_requests_total{method="GET",route="${DOWNLOAD}",status="200"}`),
            sample(now, 'coffer_http_requests_total{method="GET",route="unmatched",status="404"}'),
            sample(now, 'coffer_transfers_in_progress{direction="download"}'),
          ];
        },
        { timeout: 20_000 },
      )
      .toEqual([1, 1, 0]);
    const text = await scrape();
    expect(sample(text, `coffer_http_requests_total{method="GET",route="${DOWNLOAD}",status="200"}`)).toBe(1);
    expect(
      sample(
        text,
        'coffer_http_requests_total{method="POST",route="/api/users/uploads/direct",status="201"}',
      ),
    ).toBe(1);
    expect(sample(text, 'coffer_http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(1);
    expect(sample(text, `coffer_http_request_duration_seconds_count{method="GET",route="${DOWNLOAD}"}`)).toBe(
      1,
    );
    expect(
      sample(text, `coffer_http_request_duration_seconds_bucket{method="GET",route="${DOWNLOAD}",le="+Inf"}`),
    ).toBe(1);
    const sent = sample(text, `coffer_http_sent_bytes_total{route="${DOWNLOAD}"}`) ?? 0;
    expect(sent).toBeGreaterThanOrEqual(encryptedSizeFor(size));
    expect(sent).toBeLessThan(encryptedSizeFor(size) + 4096);
    const received = sample(text, 'coffer_http_received_bytes_total{route="/api/users/uploads/direct"}') ?? 0;
    expect(received).toBeGreaterThanOrEqual(body.length);
    expect(received).toBeLessThan(body.length + 4096);
    expect(sample(text, 'coffer_transfers_in_progress{direction="download"}')).toBe(0);
    // The sweep at start.
    expect(sample(text, 'coffer_sweeper_runs_total{result="ok"}')).toBeGreaterThanOrEqual(1);
    // Route templates only: no id from a path ever names a series.
    expect(text).not.toContain(file.fileId);
    if (backend === 'postgres-server') {
      expect(sample(text, 'coffer_db_pool_connections{state="max"}')).toBe(10);
      expect(sample(text, 'coffer_db_pool_waiting')).toBe(0);
    }
    expect((await fetch(metricsUrl.replace('/metrics', '/other'))).status).toBe(404);
  });
});

describe('Prometheus metrics of the embedded identity provider', () => {
  let t: IdpTestApp;
  let metricsUrl: string;

  beforeAll(async () => {
    const metricsPort = await freePort();
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    t = await startIdpTestApp({ env: { METRICS_PORT: String(metricsPort) } });
  });
  afterAll(() => t.close());

  it('counts the provider’s own endpoints under one fixed route label', async () => {
    const discovery = await fetch(`${t.issuer}/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    const token = await fetch(`${t.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: 'no-such-code',
        client_id: t.clientId,
      }),
    });
    expect(token.status).toBe(400);

    const text = await (await fetch(metricsUrl)).text();
    expect(sample(text, 'coffer_http_requests_total{method="GET",route="/idp/*",status="200"}')).toBe(1);
    expect(sample(text, 'coffer_http_requests_total{method="POST",route="/idp/*",status="400"}')).toBe(1);
    expect(text).not.toContain('openid-configuration');
    expect(text).not.toContain('/idp/token');
  });
});
