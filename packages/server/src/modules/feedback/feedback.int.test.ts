import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/app-harness.js';
import type { TestApp } from '../../test/app-harness.js';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';

describe.each(dialectsUnderTest)('feedback ($name)', ({ open }) => {
  let database: TestDatabase;
  let t: TestApp;

  beforeAll(async () => {
    database = await open();
    t = await startTestApp({ database, env: { ADMIN_EMAILS: 'root@example.test, Other@Example.test' } });
  });
  afterAll(async () => {
    await t.close();
    await database.destroy();
  });

  it('accepts feedback and shows it to admins only, newest first; admins can delete it', async () => {
    expect(
      (await t.as('amy', { method: 'POST', url: '/api/feedback', payload: { message: ' first ' } }))
        .statusCode,
    ).toBe(201);
    await new Promise((r) => setTimeout(r, 5));
    expect(
      (await t.as('amy', { method: 'POST', url: '/api/feedback', payload: { message: 'second' } }))
        .statusCode,
    ).toBe(201);

    const forbidden = await t.as('amy', { method: 'GET', url: '/api/admin/feedback' });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toMatchObject({ code: 'FORBIDDEN' });

    const list = await t.as('root', { method: 'GET', url: '/api/admin/feedback' });
    expect(list.statusCode).toBe(200);
    const items = list.json<{
      feedback: { id: string; userEmail: string; message: string; timestamp: string }[];
    }>().feedback;
    expect(items.map((f) => f.message).slice(0, 2)).toEqual(['second', 'first']);
    expect(items[0]?.userEmail).toBe('amy@example.test');

    const id = items[0]?.id ?? '';
    expect((await t.as('amy', { method: 'DELETE', url: `/api/admin/feedback/${id}` })).statusCode).toBe(403);
    expect((await t.as('root', { method: 'DELETE', url: `/api/admin/feedback/${id}` })).statusCode).toBe(200);
    expect((await t.as('root', { method: 'DELETE', url: `/api/admin/feedback/${id}` })).statusCode).toBe(404);
  });

  it('answers invalid feedback with the spec messages', async () => {
    const blank = await t.as('bob', { method: 'POST', url: '/api/feedback', payload: { message: '   ' } });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'Please enter your feedback' });

    const long = await t.as('bob', {
      method: 'POST',
      url: '/api/feedback',
      payload: { message: 'x'.repeat(2001) },
    });
    expect(long.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Feedback exceeds maximum length of 2000 characters',
    });
    const exact = await t.as('bob', {
      method: 'POST',
      url: '/api/feedback',
      payload: { message: 'x'.repeat(2000) },
    });
    expect(exact.statusCode).toBe(201);

    const extra = await t.as('bob', {
      method: 'POST',
      url: '/api/feedback',
      payload: { message: 'ok', admin: true },
    });
    expect(extra.statusCode).toBe(400);
    const notJson = await t.as('bob', {
      method: 'POST',
      url: '/api/feedback',
      headers: { 'content-type': 'application/json' },
      payload: '{"message":',
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toHaveProperty('code');
  });

  it('does not make an unverified email an admin', async () => {
    const token = await t.issuer.mintToken({
      sub: 'fake-root',
      email: 'other@example.test',
      email_verified: false,
      name: 'Fake',
    });
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/admin/feedback',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(403);
  });

  it('takes at most 10 messages an hour from one user, concurrent ones included', async () => {
    const send = () =>
      t.as('flooder', { method: 'POST', url: '/api/feedback', payload: { message: 'spam' } });
    const statuses = (await Promise.all(Array.from({ length: 14 }, send))).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);
    const refused = await send();
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    // Another user is not affected.
    const other = await t.as('quiet', { method: 'POST', url: '/api/feedback', payload: { message: 'hi' } });
    expect(other.statusCode).toBe(201);
  });
});
