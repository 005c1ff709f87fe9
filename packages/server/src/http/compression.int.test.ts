import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, uploadDirect } from '../modules/files/files.test-helpers.js';
import { startTestApp } from '../test/app-harness.js';
import type { TestApp } from '../test/app-harness.js';
import { dialectsUnderTest } from '../test/db.js';
import type { TestDatabase } from '../test/db.js';
import { acceptsGzip, JSON_COMPRESSION_MIN_BYTES } from './json-compression.js';

/** The compressed copies are written by the web build (packages/web/build); here the test writes them. */
function writeWithCopies(path: string, text: string): void {
  writeFileSync(path, text);
  writeFileSync(`${path}.br`, brotliCompressSync(text));
  writeFileSync(`${path}.gz`, gzipSync(text));
}

function decoded(res: LightMyRequestResponse): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.rawPayload).toString();
  if (encoding === 'gzip') return gunzipSync(res.rawPayload).toString();
  expect(encoding).toBeUndefined();
  return res.rawPayload.toString();
}

// Compression does not depend on the database: SQLite only.
const sqlite = dialectsUnderTest.find((dialect) => dialect.name === 'sqlite');

describe('compression', () => {
  let database: TestDatabase;
  let t: TestApp;
  const script = `export const app = ${JSON.stringify('Coffer '.repeat(2000))};\n`;
  const page = `<!doctype html><title>Coffer</title><div id="root"></div>${'<!-- pad -->'.repeat(200)}`;
  const worker = `self.addEventListener('fetch', () => {});/*__coffer_download__*/${' '.repeat(4000)}`;

  let web: string;

  beforeAll(async () => {
    if (sqlite === undefined) throw new Error('no SQLite dialect under test');
    web = mkdtempSync(join(tmpdir(), 'coffer-web-'));
    mkdirSync(join(web, 'assets'));
    writeWithCopies(join(web, 'index.html'), page);
    writeWithCopies(join(web, 'assets', 'app-abc123.js'), script);
    writeWithCopies(join(web, 'assets', 'app-abc123.js.map'), '{"version":3}'.padEnd(2000));
    writeWithCopies(join(web, 'download-sw.js'), worker);
    // A file the build left plain (under 1 KiB): sent as is whatever the client accepts.
    writeFileSync(join(web, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    database = await sqlite.open();
    t = await startTestApp({ database, env: { WEB_DIST_DIR: web } });
  });
  afterAll(async () => {
    await t.close();
    await database.destroy();
    rmSync(web, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  describe('built assets', () => {
    it('sends the brotli copy when the browser accepts it, with the type, cache and Vary of the file', async () => {
      const res = await get('/assets/app-abc123.js', 'gzip, deflate, br, zstd');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      // The type the file as is gets (a compressed copy's own name would say nothing of it).
      const plainType = (await get('/assets/app-abc123.js')).headers['content-type'];
      expect(plainType).toMatch(/^(?:text|application)\/javascript/);
      expect(res.headers['content-type']).toBe(plainType);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
      expect(res.rawPayload.length).toBeLessThan(script.length / 10);
      expect(decoded(res)).toBe(script);
    });

    it('sends the gzip copy to a client that takes gzip only', async () => {
      const res = await get('/assets/app-abc123.js', 'gzip');
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(decoded(res)).toBe(script);
    });

    it('sends the file as is when no encoding is accepted, still saying it varies', async () => {
      for (const accept of [undefined, 'identity', 'br;q=0, gzip;q=0']) {
        const res = await get('/assets/app-abc123.js', accept);
        expect(res.statusCode, accept).toBe(200);
        expect(res.headers['content-encoding'], accept).toBeUndefined();
        expect(res.headers.vary, accept).toMatch(/accept-encoding/i);
        expect(res.body, accept).toBe(script);
      }
    });

    it('compresses index.html for deep links too, with the security headers and no-cache', async () => {
      for (const url of ['/', '/myfiles', '/share/abc?x=1']) {
        const res = await get(url, 'br, gzip');
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-encoding'], url).toBe('br');
        expect(res.headers['content-type'], url).toMatch(/^text\/html/);
        expect(res.headers['cache-control'], url).toBe('no-cache');
        expect(res.headers['content-security-policy'], url).toContain("default-src 'self'");
        expect(res.headers.vary, url).toMatch(/accept-encoding/i);
        expect(decoded(res), url).toBe(page);
      }
    });

    it('compresses the download service worker at its fixed address, never cached for long', async () => {
      const res = await get('/download-sw.js', 'gzip');
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers['content-type']).toBe((await get('/download-sw.js')).headers['content-type']);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(decoded(res)).toBe(worker);
    });

    it('sends a file the build left uncompressed as is', async () => {
      const res = await get('/favicon.svg', 'br, gzip');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    });

    it('publishes no source map, neither asked for as is nor by its compressed name', async () => {
      for (const [url, accept] of [
        ['/assets/app-abc123.js.map', 'br'],
        ['/assets/app-abc123.js.map.br', 'identity'],
        ['/assets/app-abc123.js.map.gz', 'gzip'],
      ] as const) {
        const res = await get(url, accept);
        expect(res.statusCode, url).toBe(404);
        expect(decoded(res), url).not.toContain('"version":3');
      }
    });
  });

  describe('JSON answers', () => {
    it('gzips a large JSON answer for a client that accepts it, with its exact length', async () => {
      const plain = await get('/api/openapi.json');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toMatch(/accept-encoding/i);
      expect(plain.rawPayload.length).toBeGreaterThan(10 * JSON_COMPRESSION_MIN_BYTES);

      const gzipped = await get('/api/openapi.json', 'gzip, deflate');
      expect(gzipped.statusCode).toBe(200);
      expect(gzipped.headers['content-encoding']).toBe('gzip');
      expect(gzipped.headers['content-type']).toMatch(/^application\/json/);
      expect(gzipped.headers.vary).toMatch(/accept-encoding/i);
      expect(Number(gzipped.headers['content-length'])).toBe(gzipped.rawPayload.length);
      expect(gzipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
      expect(JSON.parse(decoded(gzipped))).toEqual(plain.json());

      const browser = await get('/api/openapi.json', 'gzip, deflate, br, zstd');
      expect(browser.headers['content-encoding']).toBe('gzip');
      // gzip only (see json-compression.ts): a client that takes brotli alone gets the answer as is.
      const brotliOnly = await get('/api/openapi.json', 'br');
      expect(brotliOnly.headers['content-encoding']).toBeUndefined();
      expect(brotliOnly.json()).toEqual(plain.json());
    });

    it('sends a small JSON answer as is', async () => {
      const res = await get('/api/health', 'gzip, br');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.json()).toMatchObject({ status: 'ok' });
    });

    it('never encodes a download: the ciphertext and its length and ranges stay exact', async () => {
      const keyId = await createKey(t, 'zoe');
      const { file, ciphertext } = await uploadDirect(t, 'zoe', { keyId, size: 64 * 1024 });
      const url = `/api/users/files/${file.fileId}/download`;
      const whole = await t.as('zoe', { method: 'GET', url, headers: { 'accept-encoding': 'gzip, br' } });
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['content-encoding']).toBeUndefined();
      expect(Number(whole.headers['content-length'])).toBe(ciphertext.length);
      expect(Buffer.compare(whole.rawPayload, Buffer.from(ciphertext))).toBe(0);

      const part = await t.as('zoe', {
        method: 'GET',
        url,
        headers: { 'accept-encoding': 'gzip, br', range: 'bytes=10-2057' },
      });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-encoding']).toBeUndefined();
      expect(part.headers['content-length']).toBe('2048');
      expect(Buffer.compare(part.rawPayload, Buffer.from(ciphertext.subarray(10, 2058)))).toBe(0);
    });
  });
});

describe('acceptsGzip', () => {
  it('reads Accept-Encoding with its q values and *', () => {
    expect(acceptsGzip('gzip, deflate, br, zstd')).toBe(true);
    expect(acceptsGzip('GZIP;q=0.5')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('br, gzip;q=0')).toBe(false);
    expect(acceptsGzip('*, gzip;q=0')).toBe(false);
    expect(acceptsGzip('br')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip('')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });
});
