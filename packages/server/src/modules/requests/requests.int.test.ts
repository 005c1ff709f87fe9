import { createHash, randomBytes } from 'node:crypto';
import type { LinksResponse, PublicRequest } from '@coffer/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/app-harness.js';
import type { TestApp } from '../../test/app-harness.js';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { createKey } from '../files/files.test-helpers.js';

// File requests through the API: the owner's calls and the uploader's first call (the public
// upload calls are not built yet).

const newId = () => randomBytes(16).toString('base64url');
const HOUR = 60 * 60 * 1000;

describe.each(dialectsUnderTest)('file requests ($name)', ({ open }) => {
  let database: TestDatabase;
  let t: TestApp;
  let clock = new Date('2026-06-01T12:00:00.000Z');

  beforeAll(async () => {
    database = await open();
    t = await startTestApp({ database, overrides: { now: () => clock } });
  });
  afterAll(async () => {
    await t.close();
    await database.destroy();
  });

  async function setUp(prefix: string, expiresAt: string | null = null) {
    const owner = `${prefix}-owner`;
    const keyId = await createKey(t, owner);
    const auth = randomBytes(32);
    const requestId = newId();
    const body = {
      requestId,
      expiresAt,
      maxFiles: 3,
      maxBytes: 1_000_000,
      message: randomBytes(40).toString('base64'),
      signedInOnly: false,
      authKeyHash: createHash('sha256').update(auth).digest('hex'),
    };
    const res = await t.as(owner, { method: 'POST', url: '/api/users/requests', payload: body });
    expect(res.statusCode, res.body).toBe(201);
    return { owner, keyId, requestId, auth: auth.toString('base64url'), body };
  }
  const openRequest = (requestId: string, auth: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/public/requests/${requestId}`,
      headers: { 'x-link-auth': auth },
    });

  it("gives a caller with A the owner's public key, key id, message and limits; lists it for the owner", async () => {
    const { owner, keyId, requestId, auth, body } = await setUp('give');
    const res = await openRequest(requestId, auth);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const request = res.json<PublicRequest>();
    expect(request).toMatchObject({
      ownerEmail: `${owner}@example.test`,
      ownerKeyId: keyId,
      message: body.message,
      filesLeft: 3,
      bytesLeft: 1_000_000,
      signedInOnly: false,
    });
    expect(request.ownerPublicKey.length).toBeGreaterThan(300);
    expect((await openRequest(requestId, randomBytes(32).toString('base64url'))).statusCode).toBe(401);
    const listed = (await t.as(owner, { method: 'GET', url: '/api/users/links' })).json<LinksResponse>();
    expect(listed.requests).toEqual([expect.objectContaining({ requestId, state: 'active', fileIds: [] })]);
  });

  it('answers closed, expired and unknown requests with the one 404', async () => {
    const closed = await setUp('closed');
    const patch = await t.as(closed.owner, {
      method: 'PATCH',
      url: `/api/users/requests/${closed.requestId}`,
      payload: { closed: true },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    expect(patch.json()).toMatchObject({ state: 'closed' });
    const expiring = await setUp('expiring', new Date(clock.getTime() + HOUR).toISOString());
    const before = clock;
    clock = new Date(clock.getTime() + HOUR);
    try {
      const answers = [
        await openRequest(closed.requestId, closed.auth),
        await openRequest(expiring.requestId, expiring.auth),
        await openRequest(newId(), closed.auth),
      ];
      for (const res of answers) {
        expect(res.statusCode).toBe(404);
        expect(res.body).toBe(answers[0]?.body);
      }
      expect(answers[0]?.json()).toMatchObject({ code: 'LINK_UNAVAILABLE' });
    } finally {
      clock = before;
    }
  });

  it("keeps another user's requests out of reach and refuses bad bodies", async () => {
    const { requestId, body } = await setUp('theirs');
    await createKey(t, 'theirs-mallory');
    const patch = await t.as('theirs-mallory', {
      method: 'PATCH',
      url: `/api/users/requests/${requestId}`,
      payload: { closed: true },
    });
    expect(patch.statusCode).toBe(404);
    expect(
      (await t.as('theirs-mallory', { method: 'DELETE', url: `/api/users/requests/${requestId}` }))
        .statusCode,
    ).toBe(404);
    const post = (payload: object) =>
      t.as('theirs-mallory', {
        method: 'POST',
        url: '/api/users/requests',
        payload: { ...body, requestId: newId(), ...payload },
      });
    for (const bad of [
      { maxFiles: 0 },
      { maxBytes: 0 },
      { requestId: 'x' },
      { expiresAt: new Date(clock.getTime() - 1).toISOString() },
      { signedInOnly: 'yes' },
    ]) {
      expect((await post(bad)).statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await post({ requestId })).statusCode).toBe(409);
  });
});
