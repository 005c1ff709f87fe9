import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/app-harness.js';
import type { TestApp } from '../../test/app-harness.js';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import type { BlobStore } from '../../infra/storage/blob-store.js';

describe.each(dialectsUnderTest)('health and readiness ($name)', ({ open }) => {
  let database: TestDatabase;
  let t: TestApp;

  beforeAll(async () => {
    database = await open();
    t = await startTestApp({ database });
  });
  afterAll(async () => {
    await t.close();
    await database.destroy();
  });

  it('is live and ready when the database, its migrations and the blob store answer', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({
      status: 'ready',
      checks: { database: { ok: true }, migrations: { ok: true }, blobStore: { ok: true } },
    });
  });

  it("names every answer with a request id, keeping a proxy's well-formed one", async () => {
    const fresh = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'proxy-42.a' },
    });
    expect(kept.headers['x-request-id']).toBe('proxy-42.a');
    const forged = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'x\u2028"}{"admin":true' },
    });
    expect(forged.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('is not ready (503, saying what is missing) when the blob store does not answer', async () => {
    const broken: BlobStore = {
      ...t.blobStore,
      stat: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:9 secret-bucket')),
    };
    const other = await startTestApp({ database, overrides: { blobStore: broken } });
    try {
      const ready = await other.app.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ status: 'not-ready', checks: { blobStore: { ok: false } } });
      // The answer names the failing part, not its address or bucket.
      expect(ready.body).not.toContain('secret-bucket');
      // Liveness does not depend on it.
      expect((await other.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('is not ready when a migration of this build is missing from the database', async () => {
    const name = '0003_verified_identities';
    await sql`delete from kysely_migration where name = ${name}`.execute(database.db);
    try {
      const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({
        checks: { migrations: { ok: false, detail: 'not applied: 0003_verified_identities' } },
      });
    } finally {
      const at = new Date().toISOString();
      await sql`insert into kysely_migration (name, timestamp) values (${name}, ${at})`.execute(database.db);
    }
  });
});
