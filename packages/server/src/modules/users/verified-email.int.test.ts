/**
 * The API honours email verification whatever the issuer (here an external one, the test issuer):
 * an identity whose address is not verified can sign in and see who it is, but has no keys, cannot be
 * found, cannot receive or send shares or invitations, and is never an admin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildKeyRequest } from '../../test/factories.js';
import { startTestApp } from '../../test/app-harness.js';
import type { TestApp } from '../../test/app-harness.js';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { userClaims } from '../../test/test-issuer.js';

describe.each(dialectsUnderTest)('verified emails in the API ($name)', ({ open }) => {
  let database: TestDatabase;
  let t: TestApp;

  beforeAll(async () => {
    database = await open();
    t = await startTestApp({ database, env: { ADMIN_EMAILS: 'root@example.test' } });
  });
  afterAll(async () => {
    await t.close();
    await database.destroy();
  });

  async function call(token: string, method: 'GET' | 'POST', url: string, payload?: object) {
    const response = await t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload }),
    });
    return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
  }

  it('an unverified address is not an account address: no keys, no lookup, no admin, no shares', async () => {
    const squatter = await t.issuer.mintToken({
      ...userClaims('root'),
      sub: 'squatter-sub',
      email_verified: false,
    });
    expect(await call(squatter, 'GET', '/api/users/me')).toEqual({
      status: 200,
      body: {
        email: 'root@example.test',
        emailVerified: false,
        isAdmin: false,
        canResendVerification: false,
      },
    });
    expect((await call(squatter, 'GET', '/api/admin/feedback')).status).toBe(403);
    expect(await call(squatter, 'POST', '/api/users/keys', await buildKeyRequest())).toMatchObject({
      status: 403,
      body: { code: 'EMAIL_NOT_VERIFIED' },
    });
    expect((await call(squatter, 'POST', '/api/users/invitations', { to: 'x@example.test' })).status).toBe(
      403,
    );
    const resend = await call(squatter, 'POST', '/api/users/me/verification-email');
    expect(resend).toMatchObject({ status: 400, body: { code: 'INVALID_OPERATION' } });

    // The real owner, verified, holds the address: keys, lookup and admin are theirs.
    const owner = await t.tokenFor('root');
    expect((await call(owner, 'POST', '/api/users/keys', await buildKeyRequest())).status).toBe(201);
    expect((await call(owner, 'GET', '/api/users/me')).body).toMatchObject({
      emailVerified: true,
      isAdmin: true,
    });
    const alice = await t.tokenFor('alice');
    expect((await call(alice, 'GET', '/api/users/keys/public/root@example.test')).status).toBe(200);
    // The squatter, still unverified, is never found under it.
    expect((await call(squatter, 'GET', '/api/users/me')).body).toMatchObject({ isAdmin: false });
  });

  it('an issuer that does not say is unverified, unless OIDC_EMAIL_VERIFIED_WHEN_ABSENT is set', async () => {
    const silent = await t.issuer.mintToken({ ...userClaims('silent'), email_verified: undefined });
    expect((await call(silent, 'GET', '/api/users/me')).body).toMatchObject({ emailVerified: false });

    const trusting = await startTestApp({ database, env: { OIDC_EMAIL_VERIFIED_WHEN_ABSENT: 'true' } });
    try {
      const b2c = await trusting.issuer.mintToken({ ...userClaims('bea'), email_verified: undefined });
      const me = await trusting.app.inject({
        method: 'GET',
        url: '/api/users/me',
        headers: { authorization: `Bearer ${b2c}` },
      });
      expect(me.json()).toMatchObject({ email: 'bea@example.test', emailVerified: true });
    } finally {
      await trusting.close();
    }
  });

  it('a verified address that loses its verification stops being found', async () => {
    const carlToken = await t.tokenFor('carl');
    expect((await call(carlToken, 'POST', '/api/users/keys', await buildKeyRequest())).status).toBe(201);
    const alice = await t.tokenFor('alice');
    expect((await call(alice, 'GET', '/api/users/keys/public/carl@example.test')).status).toBe(200);
    const unverified = await t.issuer.mintToken({ ...userClaims('carl'), email_verified: false });
    expect((await call(unverified, 'GET', '/api/users/me')).body).toMatchObject({ emailVerified: false });
    expect((await call(alice, 'GET', '/api/users/keys/public/carl@example.test')).status).toBe(404);
  });
});
