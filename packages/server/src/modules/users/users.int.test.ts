import { randomUUID } from 'node:crypto';
import { StatsResponseSchema } from '@coffer/contracts';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PLANS } from '../../config.js';
import { startTestApp } from '../../test/app-harness.js';
import type { TestApp } from '../../test/app-harness.js';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';

describe.each(dialectsUnderTest)('users and stats ($name)', ({ open }) => {
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

  const userId = async (name: string) =>
    (
      await database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', `${name}@example.test`)
        .executeTakeFirstOrThrow()
    ).id;

  it('creates the user on first sight from the token claims, once', async () => {
    await t.as('amy', { method: 'GET', url: '/api/users/stats' });
    await t.as('amy', { method: 'GET', url: '/api/users/stats' });
    const rows = await database.db.selectFrom('users').selectAll().where('subject', '=', 'amy-sub').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      email: 'amy@example.test',
      name: 'Amy',
      country: 'NL',
      idp: 'local',
      tier: 'Free',
    });
  });

  it('answers stats in the exact shape of the spec for a new free user', async () => {
    const res = await t.as('ben', { method: 'GET', url: '/api/users/stats' });
    expect(res.statusCode).toBe(200);
    const body: unknown = res.json();
    expect(Value.Check(StatsResponseSchema, body)).toBe(true);
    expect(body).toEqual({
      subscription: { tier: 'Free', limits: { ...DEFAULT_PLANS.Free, currentPeriodEnd: null } },
      storage: { used: 0 },
      transfers: { uploads: { count: 0 }, downloads: { count: 0 } },
      contacts: { count: 0 },
      sharing: { count: 0 },
    });
  });

  it('counts this month’s transfers and stored bytes', async () => {
    await t.as('cal', { method: 'GET', url: '/api/users/stats' });
    const id = await userId('cal');
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15)).toISOString();
    await database.db
      .insertInto('transfer_events')
      .values([
        { id: randomUUID(), user_id: id, kind: 'upload', bytes: 10, created_at: now.toISOString() },
        { id: randomUUID(), user_id: id, kind: 'upload', bytes: 10, created_at: now.toISOString() },
        { id: randomUUID(), user_id: id, kind: 'download', bytes: 10, created_at: now.toISOString() },
        { id: randomUUID(), user_id: id, kind: 'upload', bytes: 10, created_at: lastMonth },
      ])
      .execute();
    await database.db
      .insertInto('files')
      .values({
        id: randomUUID(),
        owner_id: id,
        name: 'a.bin',
        content_type: 'application/octet-stream',
        size: 5 * 1024 ** 3,
        stored_size: 5 * 1024 ** 3 + 28 * 54,
        is_encrypted: 1,
        encryption_info: null,
        object_key: `u/${id}/${randomUUID()}`,
        uploaded_at: now.toISOString(),
      })
      .execute();
    const stats = (await t.as('cal', { method: 'GET', url: '/api/users/stats' })).json<{
      storage: { used: number };
      transfers: { uploads: { count: number }; downloads: { count: number } };
    }>();
    expect(stats.storage.used).toBe(5 * 1024 ** 3 + 28 * 54);
    expect(stats.transfers).toEqual({ uploads: { count: 2 }, downloads: { count: 1 } });
  });

  it('applies the paid tier while its period runs, and falls back to Free after', async () => {
    await t.as('dot', { method: 'GET', url: '/api/users/stats' });
    const id = await userId('dot');
    const end = new Date(Date.now() + 20 * 86_400_000).toISOString();
    await database.db
      .updateTable('users')
      .set({ tier: 'Personal', current_period_start: new Date().toISOString(), current_period_end: end })
      .where('id', '=', id)
      .execute();
    const paid = (await t.as('dot', { method: 'GET', url: '/api/users/stats' })).json<{
      subscription: { tier: string; limits: { currentPeriodEnd: string | null; maxContacts: number } };
    }>();
    expect(paid.subscription.tier).toBe('Personal');
    expect(paid.subscription.limits).toMatchObject({
      currentPeriodEnd: end,
      maxContacts: DEFAULT_PLANS.Personal.maxContacts,
    });

    await database.db
      .updateTable('users')
      .set({ current_period_end: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', id)
      .execute();
    const lapsed = (await t.as('dot', { method: 'GET', url: '/api/users/stats' })).json<{
      subscription: { tier: string };
    }>();
    expect(lapsed.subscription.tier).toBe('Free');
  });

  it('serves the OpenAPI description generated from the contract schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ paths: Record<string, Record<string, unknown>> }>();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/users/keys', '/api/users/contacts/{email}', '/api/users/stats']),
    );
    expect(doc.paths['/api/users/contacts/{email}']).toHaveProperty('patch');
    expect(doc.paths['/api/users/contacts/{email}']).toHaveProperty('put');
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(docs.headers['content-type']).toContain('text/html');
    expect(docs.body).toContain('/api/users/stats');
  });
});
