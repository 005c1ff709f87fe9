import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { loadConfig } from './config.js';

describe('app skeleton', () => {
  let app: FastifyInstance;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'coffer-app-'));
    const web = join(dir, 'web');
    mkdirSync(join(web, 'assets'), { recursive: true });
    writeFileSync(join(web, 'index.html'), '<!doctype html><title>Coffer</title><div id="root"></div>');
    writeFileSync(join(web, 'assets', 'app-abc123.js'), 'console.log(1)');
    writeFileSync(join(web, 'assets', 'app-abc123.js.map'), '{"version":3}');
    const config = loadConfig({ DATA_DIR: join(dir, 'data'), WEB_DIST_DIR: web, LOG_LEVEL: 'silent' });
    app = await createApp(config);
  });

  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers /api/health', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok' });
  });

  it('answers unknown API routes with a JSON 404, never the SPA', async () => {
    for (const url of ['/api/nope', '/api', '/api/users/files/../../etc/passwd']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ code: 'NOT_FOUND' });
    }
    const post = await app.inject({ method: 'POST', url: '/api/health', payload: {} });
    expect(post.statusCode).toBe(404);
  });

  it('never answers a download URL of the service worker with the app page (a retried download saves no HTML)', async () => {
    const res = await app.inject({ method: 'GET', url: '/__coffer_download__/0f3c/report.pdf' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<div id="root">');
  });

  it('serves index.html for client-side routes (SPA fallback)', async () => {
    for (const url of ['/', '/landing', '/myfiles', '/share/abc?x=1', '/no/such/page']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toContain('text/html');
      expect(res.body, url).toContain('<div id="root">');
    }
  });

  it('serves fingerprinted assets with a long cache lifetime', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('serves no source maps unless configured', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/app-abc123.js.map' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('"version":3');

    const web = join(dir, 'web');
    const withMaps = await createApp(
      loadConfig({
        DATA_DIR: join(dir, 'data-maps'),
        WEB_DIST_DIR: web,
        LOG_LEVEL: 'silent',
        SERVE_SOURCE_MAPS: 'true',
      }),
    );
    try {
      const served = await withMaps.inject({ method: 'GET', url: '/assets/app-abc123.js.map' });
      expect(served.statusCode).toBe(200);
      expect(served.body).toContain('"version":3');
    } finally {
      await withMaps.close();
    }
  });

  it('has one referrer policy: the header, with no <meta name="referrer"> in the page', async () => {
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const page = readFileSync(new URL('../../web/index.html', import.meta.url), 'utf8');
    expect(page).not.toMatch(/<meta[^>]+name=["']?referrer/i);
  });

  it('sends security headers', async () => {
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // Served over plain HTTP (the default PUBLIC_URL): requests must not be rewritten to https://.
    expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
  });

  it('asks browsers to upgrade insecure requests when the public URL is HTTPS', async () => {
    const https = await createApp(
      loadConfig({
        DATA_DIR: join(dir, 'data-https'),
        WEB_DIST_DIR: join(dir, 'web'),
        LOG_LEVEL: 'silent',
        PUBLIC_URL: 'https://coffer.example',
      }),
    );
    try {
      const res = await https.inject({ method: 'GET', url: '/' });
      expect(res.headers['content-security-policy']).toContain('upgrade-insecure-requests');
    } finally {
      await https.close();
    }
  });
});

describe('loadConfig', () => {
  it('has embedded defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.publicUrl).toBe('http://localhost:8080');
    expect(config.dataDir).toMatch(/data$/);
    expect(config.metrics).toBeNull();
    expect(config.databasePoolSize).toBe(10);
  });

  it('serves metrics on their own port only when METRICS_PORT is set', () => {
    // Unauthenticated: loopback only, whatever interface the app listens on, unless asked.
    expect(loadConfig({ HOST: '0.0.0.0', METRICS_PORT: '9100' }).metrics).toEqual({
      port: 9100,
      host: '127.0.0.1',
    });
    expect(loadConfig({ METRICS_PORT: '9100', METRICS_HOST: '10.0.0.2' }).metrics?.host).toBe('10.0.0.2');
    // 0 picks a free port for each: never the same one.
    expect(loadConfig({ PORT: '0', METRICS_PORT: '0' }).metrics?.port).toBe(0);
    expect(() => loadConfig({ PORT: '9100', METRICS_PORT: '9100' })).toThrow(/METRICS_PORT must differ/);
    expect(() => loadConfig({ METRICS_PORT: 'x' })).toThrow(/METRICS_PORT/);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '0' })).toThrow(/DATABASE_POOL_SIZE/);
  });

  it('rejects bad values with a clear message', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ PUBLIC_URL: 'not a url' })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  });
});
