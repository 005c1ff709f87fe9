import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/app-harness.js';
import type { TestApp } from '../../test/app-harness.js';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { buildKeyRequest, buildWrappedKeyJson } from '../../test/factories.js';

// Issue 29: re-wrapping all key records at once, and the recovery kit. The server never opens what it
// stores; these tests check the rules around it: exactly the caller's records, atomically, one kit.

/** An Argon2id record's envelope as the client writes it (the server only checks the shape). */
function argon2idRecordJson(rev: number): string {
  return JSON.stringify({
    iv: randomBytes(12).toString('base64'),
    salt: randomBytes(16).toString('base64'),
    data: randomBytes(1232).toString('base64'),
    kdf: { name: 'Argon2id', version: 19, memoryKiB: 65536, passes: 3, parallelism: 1 },
    rev,
  });
}

function wrapJson(kitId: string): string {
  return JSON.stringify({
    v: 1,
    kitId,
    iv: randomBytes(12).toString('base64'),
    data: randomBytes(1234).toString('base64'),
  });
}

const kitId = () => randomBytes(16).toString('hex');

describe.each(dialectsUnderTest)('all keys at once, recovery kit ($name)', ({ open }) => {
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

  async function twoKeys(user: string): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await t.as(user, {
        method: 'POST',
        url: '/api/users/keys',
        payload: await buildKeyRequest(),
      });
      ids.push(res.json<{ keyId: string }>().keyId);
    }
    return ids;
  }

  const list = async (user: string) =>
    (await t.as(user, { method: 'GET', url: '/api/users/keys' })).json<{
      keys: { keyId: string; encryptedPrivateKey: string }[];
    }>().keys;

  it('PUT /users/keys re-wraps every record in one call; a list missing a key is refused and changes nothing', async () => {
    const ids = await twoKeys('ada');
    const before = await list('ada');
    const partial = await t.as('ada', {
      method: 'PUT',
      url: '/api/users/keys',
      payload: { keys: [{ keyId: ids[0], encryptedPrivateKey: argon2idRecordJson(1) }] },
    });
    expect(partial.statusCode).toBe(409);
    expect(partial.json()).toMatchObject({ code: 'KEY_SET_CHANGED' });
    const unknown = await t.as('ada', {
      method: 'PUT',
      url: '/api/users/keys',
      payload: {
        keys: [
          { keyId: ids[0], encryptedPrivateKey: argon2idRecordJson(1) },
          { keyId: 'not-mine', encryptedPrivateKey: argon2idRecordJson(1) },
        ],
      },
    });
    expect(unknown.statusCode).toBe(409);
    expect(await list('ada')).toEqual(before);

    const next = ids.map((keyId) => ({ keyId, encryptedPrivateKey: argon2idRecordJson(1) }));
    const res = await t.as('ada', { method: 'PUT', url: '/api/users/keys', payload: { keys: next } });
    expect(res.statusCode).toBe(200);
    const answered = res.json<{ keys: { keyId: string; encryptedPrivateKey: string }[] }>().keys;
    for (const item of next) {
      expect(answered.find((key) => key.keyId === item.keyId)?.encryptedPrivateKey).toBe(
        item.encryptedPrivateKey,
      );
    }
    expect(await list('ada')).toEqual(answered);
  });

  it('another user’s key ids are refused like unknown ones (409), and their records stay as they are', async () => {
    const [theirs] = await twoKeys('bea');
    const [mine] = await twoKeys('cal');
    const beaBefore = await list('bea');
    const res = await t.as('cal', {
      method: 'PUT',
      url: '/api/users/keys',
      payload: {
        keys: [
          { keyId: theirs, encryptedPrivateKey: argon2idRecordJson(2) },
          { keyId: mine, encryptedPrivateKey: argon2idRecordJson(2) },
        ],
      },
    });
    expect(res.statusCode).toBe(409);
    expect(await list('bea')).toEqual(beaBefore);
  });

  it('a recovery kit: stored, answered, replaced whole (the old wraps are gone), deleted', async () => {
    const ids = await twoKeys('dot');
    expect((await t.as('dot', { method: 'GET', url: '/api/users/keys/recovery' })).statusCode).toBe(404);
    const first = kitId();
    const firstWraps = ids.map((keyId) => ({ keyId, encryptedPrivateKey: wrapJson(first) }));
    const put = await t.as('dot', {
      method: 'PUT',
      url: '/api/users/keys/recovery',
      payload: { kitId: first, wraps: firstWraps },
    });
    expect(put.statusCode).toBe(200);
    const got = await t.as('dot', { method: 'GET', url: '/api/users/keys/recovery' });
    expect(got.json()).toMatchObject({ kitId: first, wraps: firstWraps });

    const second = kitId();
    const secondWraps = ids.map((keyId) => ({ keyId, encryptedPrivateKey: wrapJson(second) }));
    await t.as('dot', {
      method: 'PUT',
      url: '/api/users/keys/recovery',
      payload: { kitId: second, wraps: secondWraps },
    });
    const replaced = await t.as('dot', { method: 'GET', url: '/api/users/keys/recovery' });
    expect(replaced.json()).toMatchObject({ kitId: second, wraps: secondWraps });
    const stored = JSON.stringify(await database.db.selectFrom('user_recovery_kits').selectAll().execute());
    for (const wrap of firstWraps) expect(stored).not.toContain(wrap.encryptedPrivateKey);

    // A kit that misses a key record is refused, and the current one stays.
    const partial = await t.as('dot', {
      method: 'PUT',
      url: '/api/users/keys/recovery',
      payload: { kitId: first, wraps: firstWraps.slice(0, 1) },
    });
    expect(partial.statusCode).toBe(409);
    expect(partial.json()).toMatchObject({ code: 'KEY_SET_CHANGED' });
    expect((await t.as('dot', { method: 'GET', url: '/api/users/keys/recovery' })).json()).toMatchObject({
      kitId: second,
    });

    expect((await t.as('dot', { method: 'DELETE', url: '/api/users/keys/recovery' })).statusCode).toBe(200);
    expect((await t.as('dot', { method: 'GET', url: '/api/users/keys/recovery' })).statusCode).toBe(404);
  });

  it('adding or deleting a key record drops the kit (it no longer covers the keys)', async () => {
    const ids = await twoKeys('eve');
    const putKit = async () => {
      const id = kitId();
      const current = (await list('eve')).map((key) => ({
        keyId: key.keyId,
        encryptedPrivateKey: wrapJson(id),
      }));
      const res = await t.as('eve', {
        method: 'PUT',
        url: '/api/users/keys/recovery',
        payload: { kitId: id, wraps: current },
      });
      expect(res.statusCode).toBe(200);
    };
    await putKit();
    await t.as('eve', { method: 'POST', url: '/api/users/keys', payload: await buildKeyRequest() });
    expect((await t.as('eve', { method: 'GET', url: '/api/users/keys/recovery' })).statusCode).toBe(404);
    await putKit();
    await t.as('eve', { method: 'DELETE', url: `/api/users/keys/${encodeURIComponent(ids[0] ?? '')}` });
    expect((await t.as('eve', { method: 'GET', url: '/api/users/keys/recovery' })).statusCode).toBe(404);
  });

  it('another user’s kit is invisible', async () => {
    const ids = await twoKeys('fay');
    const id = kitId();
    await t.as('fay', {
      method: 'PUT',
      url: '/api/users/keys/recovery',
      payload: { kitId: id, wraps: ids.map((keyId) => ({ keyId, encryptedPrivateKey: wrapJson(id) })) },
    });
    await twoKeys('gus');
    const res = await t.as('gus', { method: 'GET', url: '/api/users/keys/recovery' });
    expect(res.statusCode).toBe(404);
    await t.as('gus', { method: 'DELETE', url: '/api/users/keys/recovery' });
    expect((await t.as('fay', { method: 'GET', url: '/api/users/keys/recovery' })).json()).toMatchObject({
      kitId: id,
    });
  });

  it('refuses bad bodies with 400 and changes nothing', async () => {
    const ids = await twoKeys('hal');
    const before = await list('hal');
    const id = kitId();
    const keyCases: unknown[] = [
      {},
      { keys: [] },
      { keys: [{ keyId: ids[0], encryptedPrivateKey: 'plain' }] },
      // Argon2id without rev, PBKDF2 with rev, Argon2id below 64 MiB.
      {
        keys: ids.map((keyId) => ({
          keyId,
          encryptedPrivateKey: JSON.stringify({ ...JSON.parse(argon2idRecordJson(1)), rev: undefined }),
        })),
      },
      {
        keys: ids.map((keyId) => ({
          keyId,
          encryptedPrivateKey: JSON.stringify({ ...JSON.parse(buildWrappedKeyJson()), rev: 1 }),
        })),
      },
      {
        keys: ids.map((keyId) => ({
          keyId,
          encryptedPrivateKey: JSON.stringify({
            ...JSON.parse(argon2idRecordJson(1)),
            kdf: { name: 'Argon2id', version: 19, memoryKiB: 1024, passes: 3, parallelism: 1 },
          }),
        })),
      },
      // A key id twice; a signing key for records that have none.
      { keys: [ids[0], ids[0]].map((keyId) => ({ keyId, encryptedPrivateKey: argon2idRecordJson(1) })) },
      {
        keys: ids.map((keyId) => ({
          keyId,
          encryptedPrivateKey: argon2idRecordJson(1),
          encryptedSigningKey: JSON.stringify({ ...JSON.parse(argon2idRecordJson(1)), alg: 'Ed25519' }),
        })),
      },
    ];
    for (const payload of keyCases) {
      const res = await t.as('hal', { method: 'PUT', url: '/api/users/keys', payload: payload as object });
      expect(res.statusCode, JSON.stringify(payload).slice(0, 120)).toBe(400);
    }
    expect(await list('hal')).toEqual(before);
    const kitCases: unknown[] = [
      { kitId: 'short', wraps: ids.map((keyId) => ({ keyId, encryptedPrivateKey: wrapJson(id) })) },
      { kitId: id, wraps: [] },
      { kitId: id, wraps: ids.map((keyId) => ({ keyId, encryptedPrivateKey: wrapJson(kitId()) })) },
      { kitId: id, wraps: ids.map((keyId) => ({ keyId, encryptedPrivateKey: '{"v":1}' })) },
      { kitId: id, wraps: ids.map((keyId) => ({ keyId, encryptedPrivateKey: wrapJson(id), extra: 1 })) },
    ];
    for (const payload of kitCases) {
      const res = await t.as('hal', {
        method: 'PUT',
        url: '/api/users/keys/recovery',
        payload: payload as object,
      });
      expect(res.statusCode, JSON.stringify(payload).slice(0, 120)).toBe(400);
    }
    expect((await t.as('hal', { method: 'GET', url: '/api/users/keys/recovery' })).statusCode).toBe(404);
  });
});
