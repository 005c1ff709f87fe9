import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/app-harness.js';
import type { TestApp } from '../../test/app-harness.js';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { buildKeyRequest, buildWrappedKeyJson } from '../../test/factories.js';

describe.each(dialectsUnderTest)('keys ($name)', ({ open }) => {
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

  it('stores key records and answers the newest as active', async () => {
    const none = await t.as('kim', { method: 'GET', url: '/api/users/keys/active' });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({ code: 'KEYS_NOT_FOUND' });

    const first = await t.as('kim', {
      method: 'POST',
      url: '/api/users/keys',
      payload: await buildKeyRequest(),
    });
    expect(first.statusCode).toBe(201);
    const firstRecord = first.json<{
      keyId: string;
      publicKey: string;
      encryptedPrivateKey: string;
      createdAt: string;
    }>();
    expect(firstRecord.keyId).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(new Date(firstRecord.createdAt).toISOString()).toBe(firstRecord.createdAt);

    await new Promise((r) => setTimeout(r, 5));
    const second = await t.as('kim', {
      method: 'POST',
      url: '/api/users/keys',
      payload: await buildKeyRequest(),
    });
    const secondRecord = second.json<{ keyId: string }>();

    const active = await t.as('kim', { method: 'GET', url: '/api/users/keys/active' });
    expect(active.json()).toMatchObject({ keyId: secondRecord.keyId });

    const list = await t.as('kim', { method: 'GET', url: '/api/users/keys' });
    expect(list.json<{ keys: { keyId: string }[] }>().keys.map((k) => k.keyId)).toEqual([
      secondRecord.keyId,
      firstRecord.keyId,
    ]);
  });

  it('looks up a public key by email, case-insensitively, or answers KEYS_NOT_FOUND', async () => {
    const body = await buildKeyRequest();
    const created = (await t.as('lee', { method: 'POST', url: '/api/users/keys', payload: body })).json<{
      keyId: string;
    }>();
    const found = await t.as('kim', {
      method: 'GET',
      url: `/api/users/keys/public/${encodeURIComponent('LEE@example.test')}`,
    });
    expect(found.statusCode).toBe(200);
    expect(found.json()).toEqual({ publicKey: body.publicKey, keyId: created.keyId });

    const missing = await t.as('kim', { method: 'GET', url: '/api/users/keys/public/nobody%40example.test' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'KEYS_NOT_FOUND' });

    const bad = await t.as('kim', { method: 'GET', url: '/api/users/keys/public/not-an-email' });
    expect(bad.statusCode).toBe(400);
  });

  it('re-wraps a private key after a password change, keeping the public key', async () => {
    const body = await buildKeyRequest();
    const created = (await t.as('max', { method: 'POST', url: '/api/users/keys', payload: body })).json<{
      keyId: string;
    }>();
    const rewrapped = buildWrappedKeyJson();
    const res = await t.as('max', {
      method: 'PUT',
      url: `/api/users/keys/${encodeURIComponent(created.keyId)}`,
      payload: { encryptedPrivateKey: rewrapped },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      keyId: created.keyId,
      publicKey: body.publicKey,
      encryptedPrivateKey: rewrapped,
    });
  });

  it('deletes a key; afterwards it is gone', async () => {
    const created = (
      await t.as('ned', { method: 'POST', url: '/api/users/keys', payload: await buildKeyRequest() })
    ).json<{ keyId: string }>();
    const del = await t.as('ned', {
      method: 'DELETE',
      url: `/api/users/keys/${encodeURIComponent(created.keyId)}`,
    });
    expect(del.statusCode).toBe(200);
    const again = await t.as('ned', {
      method: 'DELETE',
      url: `/api/users/keys/${encodeURIComponent(created.keyId)}`,
    });
    expect(again.statusCode).toBe(404);
    expect((await t.as('ned', { method: 'GET', url: '/api/users/keys/active' })).statusCode).toBe(404);
  });

  it('refuses malformed key records with a 400 and stores nothing', async () => {
    const good = await buildKeyRequest();
    const cases: unknown[] = [
      {},
      { publicKey: good.publicKey },
      { ...good, extra: 1 },
      { ...good, publicKey: 'not base64!' },
      { ...good, publicKey: Buffer.from('short').toString('base64') },
      { ...good, encryptedPrivateKey: 'plain text' },
      { ...good, encryptedPrivateKey: JSON.stringify({ iv: 'AAAA', salt: 'AAAA' }) },
      { ...good, encryptedPrivateKey: JSON.stringify({ kty: 'RSA', d: 'secret' }) },
    ];
    for (const payload of cases) {
      const res = await t.as('oli', { method: 'POST', url: '/api/users/keys', payload: payload as object });
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    const list = await t.as('oli', { method: 'GET', url: '/api/users/keys' });
    expect(list.json()).toEqual({ keys: [] });
  });
});
