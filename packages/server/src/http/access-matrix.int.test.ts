import { apiRoutes, API_PREFIX } from '@coffer/contracts';
import type { ApiRoute } from '@coffer/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../test/app-harness.js';
import type { TestApp } from '../test/app-harness.js';
import { dialectsUnderTest } from '../test/db.js';
import type { TestDatabase } from '../test/db.js';
import { buildKeyRequest, wrappedKeyB64 } from '../test/factories.js';
import { createKey, putPart, startMultipart, uploadDirect } from '../modules/files/files.test-helpers.js';
import { userClaims } from '../test/test-issuer.js';

/**
 * Routes of the contract that later work will implement. The test fails once one of them exists, so the
 * list (and with it the matrix) follows the code.
 */
const NOT_YET_IMPLEMENTED = new Set<string>();

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

  it('gives each file and upload route to its owner, shared routes to current recipients, and nothing to others', async () => {
    const ownerKey = await createKey(t, 'olga');
    const ritaKey = await createKey(t, 'rita');
    const rexKey = await createKey(t, 'rex');
    await createKey(t, 'sam');
    const { file } = await uploadDirect(t, 'olga', { keyId: ownerKey, size: 100 });
    const shareWith = (name: string, keyVersion: string) =>
      t.as('olga', {
        method: 'POST',
        url: `/api/users/files/${file.fileId}/share`,
        payload: { email: `${name}@example.test`, encryptedFileKey: wrappedKeyB64(), keyVersion },
      });
    expect((await shareWith('rita', ritaKey)).statusCode).toBe(201);
    expect((await shareWith('rex', rexKey)).statusCode).toBe(201);
    const revoked = await t.as('olga', {
      method: 'DELETE',
      url: `/api/users/files/${file.fileId}/share/rex%40example.test`,
    });
    expect(revoked.statusCode).toBe(200);
    const upload = await startMultipart(t, 'olga', { keyId: ownerKey, size: 100 });
    const part = await putPart(t, 'olga', upload, 1, new Uint8Array(128));
    const etag = part.json<{ etag: string }>().etag;

    type Role = 'owner' | 'recipient' | 'stranger' | 'revoked';
    const users: Record<Role, string> = { owner: 'olga', recipient: 'rita', stranger: 'sam', revoked: 'rex' };
    const partQuery = `?objectKey=${encodeURIComponent(upload.objectKey)}`;
    const cases: {
      name: string;
      request: (id: string) => { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: object };
      allowed: Role[];
      okStatus: number;
    }[] = [
      {
        name: 'getFile',
        request: (id) => ({ method: 'GET', url: `/api/users/files/${id}` }),
        allowed: ['owner'],
        okStatus: 200,
      },
      {
        name: 'downloadFile',
        request: (id) => ({ method: 'GET', url: `/api/users/files/${id}/download` }),
        allowed: ['owner'],
        okStatus: 200,
      },
      {
        name: 'listFileShares',
        request: (id) => ({ method: 'GET', url: `/api/users/files/${id}/shares` }),
        allowed: ['owner'],
        okStatus: 200,
      },
      {
        name: 'shareFile',
        request: (id) => ({
          method: 'POST',
          url: `/api/users/files/${id}/share`,
          payload: { email: 'rita@example.test', encryptedFileKey: wrappedKeyB64(), keyVersion: ritaKey },
        }),
        allowed: ['owner'],
        // Already shared with rita: the owner gets past authorization to the conflict.
        okStatus: 409,
      },
      {
        name: 'shareFiles',
        request: (id) => ({
          method: 'POST',
          url: '/api/users/shares',
          payload: {
            email: 'rita@example.test',
            files: [{ fileId: id, encryptedFileKey: wrappedKeyB64(), keyVersion: ritaKey }],
          },
        }),
        allowed: ['owner'],
        okStatus: 409,
      },
      {
        name: 'getSharedFile',
        request: (id) => ({ method: 'GET', url: `/api/users/files/shared/${id}` }),
        allowed: ['recipient'],
        okStatus: 200,
      },
      {
        name: 'downloadSharedFile',
        request: (id) => ({ method: 'GET', url: `/api/users/files/shared/${id}/download` }),
        allowed: ['recipient'],
        okStatus: 200,
      },
      {
        name: 'getMultipartUpload',
        request: (id) => ({ method: 'GET', url: `/api/users/uploads/multipart/${id}` }),
        allowed: ['owner'],
        okStatus: 200,
      },
      {
        name: 'uploadPart',
        request: (id) => ({ method: 'PUT', url: `/api/users/uploads/multipart/${id}/part/1${partQuery}` }),
        allowed: ['owner'],
        okStatus: 200,
      },
      {
        name: 'completeMultipartUpload',
        request: (id) => ({
          method: 'POST',
          url: `/api/users/uploads/multipart/${id}/complete`,
          // A wrong etag: the owner gets past authorization to the check.
          payload: {
            uploadId: id,
            objectKey: upload.objectKey,
            parts: [{ partNumber: 1, etag: `${etag}x` }],
          },
        }),
        allowed: ['owner'],
        okStatus: 400,
      },
      {
        name: 'revokeShare',
        request: (id) => ({ method: 'DELETE', url: `/api/users/files/${id}/share/rita%40example.test` }),
        allowed: ['owner'],
        okStatus: 200,
      },
      {
        name: 'abortMultipartUpload',
        request: (id) => ({ method: 'DELETE', url: `/api/users/uploads/multipart/${id}` }),
        allowed: ['owner'],
        okStatus: 200,
      },
      {
        name: 'deleteFile',
        request: (id) => ({ method: 'DELETE', url: `/api/users/files/${id}` }),
        allowed: ['owner'],
        okStatus: 200,
      },
    ];
    // Others first: the owner's revoke, abort and delete change what later cases see.
    const roles: Role[] = ['stranger', 'revoked', 'recipient', 'owner'];
    for (const { name, request, allowed, okStatus } of cases) {
      const id = name.includes('Multipart') || name === 'uploadPart' ? upload.uploadId : file.fileId;
      const withBody = (r: ReturnType<typeof request>) =>
        name === 'uploadPart'
          ? { ...r, payload: Buffer.alloc(128), headers: { 'content-type': 'application/octet-stream' } }
          : r;
      for (const role of roles) {
        const res = await t.as(users[role], withBody(request(id)));
        if (allowed.includes(role)) {
          expect(res.statusCode, `${name} as ${role}`).toBe(okStatus);
          continue;
        }
        const missing = await t.as(users[role], withBody(request('no-such-id')));
        expect(res.statusCode, `${name} as ${role}`).toBe(404);
        expect(res.json(), `${name} as ${role}`).toEqual(missing.json());
      }
    }

    // Lists show each person only their own.
    const list = async (name: string, url: string) =>
      (await t.as(name, { method: 'GET', url })).json<object>();
    for (const name of ['rita', 'sam', 'rex']) {
      expect(await list(name, '/api/users/files')).toEqual({ files: [], count: 0 });
      expect(await list(name, '/api/users/uploads')).toEqual({ uploads: [], count: 0 });
    }
    for (const name of ['olga', 'sam', 'rex', 'rita']) {
      expect(await list(name, '/api/users/files/shared')).toEqual({ files: [] });
    }
  });

  it('never answers 5xx to malformed parameters', async () => {
    const urls = [
      '/api/users/files/%00',
      '/api/users/files/' + 'a'.repeat(5000) + '/download',
      '/api/users/files/shared/..%2F..%2Fetc',
      '/api/users/files/x/share/%E0%A4%A',
      '/api/users/files/x/share/not-an-email',
      '/api/users/uploads/multipart/..%2Fx/part/1?objectKey=..%2F..%2Fetc',
      '/api/users/uploads/multipart/x/part/99999999999999999999?objectKey=a',
      '/api/users/uploads?limit=-1',
      '/api/users/uploads?limit=1e9',
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
