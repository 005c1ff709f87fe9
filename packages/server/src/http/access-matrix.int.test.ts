import { apiRoutes, API_PREFIX } from '@coffer/contracts';
import type { ApiRoute } from '@coffer/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../test/app-harness.js';
import type { TestApp } from '../test/app-harness.js';
import { dialectsUnderTest } from '../test/db.js';
import type { TestDatabase } from '../test/db.js';
import { buildKeyRequest } from '../test/factories.js';
import { userClaims } from '../test/test-issuer.js';

/**
 * Routes of the contract that later work will implement. The test fails once one of them exists, so the
 * list (and with it the matrix) follows the code.
 */
const NOT_YET_IMPLEMENTED = new Set([
  'listFiles',
  'listUploads',
  'listSharedFiles',
  'getSharedFile',
  'downloadSharedFile',
  'getFile',
  'listFileShares',
  'downloadFile',
  'shareFile',
  'revokeShare',
  'deleteFile',
  'createMultipartUpload',
  'uploadPart',
  'completeMultipartUpload',
  'abortMultipartUpload',
  'directUpload',
  'openPaymentPortal',
  'startCheckout',
]);

const SAMPLE_PARAMS: Record<string, string> = {
  id: 'sample-id',
  keyId: 'sample-key',
  email: 'someone@example.test',
  uploadId: 'sample-upload',
  n: '1',
};

function urlOf(route: ApiRoute): string {
  const path = route.path.replace(/:(\w+)/g, (_m, name: string) =>
    encodeURIComponent(SAMPLE_PARAMS[name] ?? 'x'),
  );
  return `${API_PREFIX}${path}`;
}

const implemented = apiRoutes.filter((r) => !NOT_YET_IMPLEMENTED.has(r.operationId));
const protectedRoutes = implemented.filter((r) => r.auth !== 'none');

describe.each(dialectsUnderTest)('access matrix ($name)', ({ open }) => {
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

  it('implements every route of the contract that is not listed as pending', () => {
    for (const route of apiRoutes) {
      const exists = t.app.hasRoute({ method: route.method, url: `${API_PREFIX}${route.path}` });
      expect(exists, `${route.method} ${route.path}`).toBe(!NOT_YET_IMPLEMENTED.has(route.operationId));
    }
  });

  it.each(protectedRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s refuses missing and invalid tokens with 401',
    async (_name, route) => {
      const tokens: (string | null)[] = [
        null,
        'garbage',
        await t.issuer.mintToken(userClaims('mallory'), { expiresInSec: -3600 }),
        await t.issuer.mintToken(userClaims('mallory'), { audience: 'some-other-api' }),
        await t.issuer.mintToken(userClaims('mallory'), { signer: 'unpublished' }),
        await t.issuer.mintToken(userClaims('mallory'), { signer: 'hs256' }),
        await t.issuer.mintToken(userClaims('mallory'), { signer: 'none' }),
      ];
      for (const token of tokens) {
        const res = await t.app.inject({
          method: route.method,
          url: urlOf(route),
          headers: token === null ? {} : { authorization: `Bearer ${token}` },
          ...(route.bodyKind === 'json' ? { payload: {} } : {}),
        });
        expect(
          res.statusCode,
          `${route.operationId} with ${token === null ? 'no token' : token.slice(0, 12)}`,
        ).toBe(401);
        expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
      }
    },
  );

  it.each(implemented.filter((r) => r.auth === 'admin').map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s is forbidden to non-admins',
    async (_name, route) => {
      const res = await t.as('mallory', { method: route.method, url: urlOf(route) });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'FORBIDDEN' });
    },
  );

  it("answers another user's key exactly like a key that does not exist", async () => {
    const victimKey = (
      await t.as('victor', { method: 'POST', url: '/api/users/keys', payload: await buildKeyRequest() })
    ).json<{ keyId: string }>();
    const missing = await t.as('mallory', { method: 'DELETE', url: '/api/users/keys/no-such-key' });
    const foreign = await t.as('mallory', { method: 'DELETE', url: `/api/users/keys/${victimKey.keyId}` });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(missing.json());

    const rewrap = await t.as('mallory', {
      method: 'PUT',
      url: `/api/users/keys/${victimKey.keyId}`,
      payload: { encryptedPrivateKey: '{"iv":"AAAA","salt":"AAAA","data":"AAAA"}' },
    });
    expect(rewrap.statusCode).toBe(404);
    // Victor's key is untouched.
    const active = await t.as('victor', { method: 'GET', url: '/api/users/keys/active' });
    expect(active.json()).toMatchObject({ keyId: victimKey.keyId });
    // Mallory's own lists stay empty.
    expect((await t.as('mallory', { method: 'GET', url: '/api/users/keys' })).json()).toEqual({ keys: [] });
  });

  it("answers another user's contact exactly like a contact that does not exist", async () => {
    await t.as('victor', {
      method: 'POST',
      url: '/api/users/contacts',
      payload: { email: 'wendy@example.test', name: 'W' },
    });
    for (const method of ['PATCH', 'PUT'] as const) {
      const res = await t.as('mallory', {
        method,
        url: '/api/users/contacts/wendy%40example.test',
        payload: { name: 'Z' },
      });
      expect(res.statusCode).toBe(404);
    }
    expect(
      (await t.as('mallory', { method: 'DELETE', url: '/api/users/contacts/wendy%40example.test' }))
        .statusCode,
    ).toBe(404);
    const victorContacts = await t.as('victor', { method: 'GET', url: '/api/users/contacts' });
    expect(victorContacts.json()).toMatchObject({ contacts: [{ email: 'wendy@example.test', name: 'W' }] });
    expect((await t.as('mallory', { method: 'GET', url: '/api/users/contacts' })).json()).toEqual({
      contacts: [],
    });
  });

  it('never answers 5xx to malformed parameters', async () => {
    const urls = [
      '/api/users/keys/%00',
      '/api/users/keys/' + 'a'.repeat(5000),
      '/api/users/contacts/%E0%A4%A',
      '/api/users/keys/public/%40%40',
      '/api/admin/feedback/..%2F..%2Fetc',
    ];
    for (const url of urls) {
      for (const method of ['GET', 'DELETE', 'PUT', 'PATCH'] as const) {
        const res = await t.as('mallory', {
          method,
          url,
          payload: method === 'PUT' || method === 'PATCH' ? {} : undefined,
        });
        expect(res.statusCode, `${method} ${url}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${method} ${url}`).toBeLessThan(500);
      }
    }
  });
});
