import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { registerErrorHandling } from '../../http/error-handler.js';
import { ForbiddenError } from '../../http/errors.js';
import { startTestIssuer, userClaims } from '../../test/test-issuer.js';
import type { TestIssuer } from '../../test/test-issuer.js';
import { authOf, bearerTokenFrom, isAdminEmail, isAdminIdentity, registerAuth } from './auth.plugin.js';
import type { AuthUser } from './auth.plugin.js';
import type { Identity } from './identity.js';
import { createJoseTokenVerifier } from './token-verifier.js';

const ADMIN_EMAILS = ['Admin@Example.test'];

let idp: TestIssuer;
let app: FastifyInstance;
const logLines: string[] = [];
const seen: Identity[] = [];

beforeAll(async () => {
  idp = await startTestIssuer();
  app = Fastify({
    logger: {
      level: 'trace',
      // As in app.ts; the serializer adds the headers so the test proves the redaction, not their absence.
      redact: ['req.headers.authorization'],
      serializers: {
        req: (req: { method: string; url: string; headers: unknown }) => ({
          method: req.method,
          url: req.url,
          headers: req.headers,
        }),
      },
      stream: { write: (line: string) => void logLines.push(line) },
    },
  });
  registerErrorHandling(app);
  const verifier = createJoseTokenVerifier({ issuer: idp.issuer, audience: idp.audience });
  const authenticate = registerAuth(app, {
    verifier,
    onIdentity: (identity): Promise<AuthUser & { plan: string }> => {
      seen.push(identity);
      if (identity.subject === 'blocked-sub') throw new ForbiddenError('Account blocked');
      return Promise.resolve({
        id: `user-${identity.subject}`,
        email: identity.email,
        name: identity.name,
        isAdmin: isAdminIdentity(identity, ADMIN_EMAILS),
        plan: 'free',
      });
    },
  });
  await app.register((scope, _opts, done) => {
    scope.addHook('preHandler', authenticate);
    scope.get('/private', (request) => authOf(request));
    done();
  });
  app.get('/public', (request) => ({ auth: request.auth }));
  app.get('/public-misused', (request) => authOf(request));
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await idp.close();
});

beforeEach(() => {
  seen.length = 0;
});

async function get(url: string, authorization?: string) {
  return app.inject({ method: 'GET', url, headers: authorization === undefined ? {} : { authorization } });
}

describe('requireAuth hook', () => {
  it('answers 401 with the error body and a WWW-Authenticate header when there is no header', async () => {
    const response = await get('/private');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ code: 'UNAUTHORIZED', message: 'Authentication required' });
    expect(response.headers['www-authenticate']).toBe('Bearer realm="coffer"');
    expect(seen).toEqual([]);
  });

  it('rejects other schemes', async () => {
    const response = await get('/private', 'Basic YWxpY2U6c2VjcmV0');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      code: 'UNAUTHORIZED',
      message: 'Authorization must use the Bearer scheme',
    });
  });

  it.each(['Bearer', 'Bearer ', 'Bearer a b', 'Bearer a,b', 'Bearertoken', 'Bearer not a jwt'])(
    'rejects the malformed header %j',
    async (header) => {
      const response = await get('/private', header);
      expect(response.statusCode).toBe(401);
      expect(response.json<{ code: string }>().code).toBe('UNAUTHORIZED');
    },
  );

  it('rejects a well-formed bearer value that is not a valid token', async () => {
    const response = await get('/private', 'Bearer abc.def.ghi');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ code: 'UNAUTHORIZED', message: 'Invalid access token' });
  });

  it('rejects an oversize header before verifying anything', async () => {
    const response = await get('/private', `Bearer ${'a'.repeat(9 * 1024)}`);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ code: 'UNAUTHORIZED', message: 'Authorization header is too large' });
  });

  it('rejects an expired token', async () => {
    const response = await get('/private', `Bearer ${await idp.mintToken({}, { expiresInSec: -3600 })}`);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ code: 'UNAUTHORIZED', message: 'Access token has expired' });
  });

  it('authenticates a valid token, with the scheme in any case', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
      const response = await get('/private', `${scheme} ${await idp.mintToken(userClaims('admin'))}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        identity: {
          issuer: idp.issuer,
          subject: 'admin-sub',
          email: 'admin@example.test',
          emailVerified: true,
          emails: ['admin@example.test'],
          name: 'Admin',
          country: 'NL',
          idp: 'local',
          issuedAt: expect.any(Number) as number,
        },
        user: {
          id: 'user-admin-sub',
          email: 'admin@example.test',
          name: 'Admin',
          isAdmin: true,
          plan: 'free',
        },
      });
    }
    expect(seen).toHaveLength(3);
  });

  it('passes errors from onIdentity through', async () => {
    const response = await get('/private', `Bearer ${await idp.mintToken({ sub: 'blocked-sub' })}`);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ code: 'FORBIDDEN', message: 'Account blocked' });
  });

  it('leaves routes outside the scope public, and authOf fails closed there', async () => {
    expect((await get('/public')).json()).toEqual({ auth: null });
    const misused = await get('/public-misused', `Bearer ${await idp.mintToken()}`);
    expect(misused.statusCode).toBe(401);
    expect(seen).toEqual([]);
  });

  it('never writes the Authorization header or a token to the log', async () => {
    const tokens = [
      await idp.mintToken(userClaims('bob')),
      await idp.mintToken({}, { expiresInSec: -3600 }),
      await idp.mintToken({}, { signer: 'unpublished' }),
    ];
    logLines.length = 0;
    for (const token of tokens) await get('/private', `Bearer ${token}`);
    await get('/private', 'Basic c2VjcmV0LWJhc2ljLWNyZWRlbnRpYWw=');
    const log = logLines.join('');
    expect(log).toContain('[Redacted]');
    expect(log).toContain('request not authenticated');
    for (const token of tokens) {
      expect(log).not.toContain(token);
      // Nor any of its parts (the signature alone would not matter, the payload might).
      for (const part of token.split('.')) expect(log).not.toContain(part);
    }
    expect(log).not.toContain('c2VjcmV0LWJhc2ljLWNyZWRlbnRpYWw');
  });
});

describe('bearerTokenFrom', () => {
  it('returns exactly the token', () => {
    expect(bearerTokenFrom('Bearer abc.DEF-_~+/.ghi==')).toBe('abc.DEF-_~+/.ghi==');
    expect(bearerTokenFrom('bearer   x')).toBe('x');
  });

  it.each([undefined, '', '   ', 'Bearer', 'Bearer a b', 'Basic abc', 'Digest a=b', 'Bearer ä'])(
    'throws UNAUTHORIZED for %j',
    (header) => {
      expect(() => bearerTokenFrom(header)).toThrow(
        expect.objectContaining({ code: 'UNAUTHORIZED' }) as Error,
      );
    },
  );
});

describe('admin check', () => {
  const identity: Identity = {
    issuer: 'https://idp.example',
    subject: 's',
    email: 'admin@example.test',
    emailVerified: true,
    emails: ['admin@example.test'],
    name: null,
    country: null,
    idp: 'local',
  };

  it('matches admin emails case-insensitively', () => {
    expect(isAdminEmail('ADMIN@example.test', ADMIN_EMAILS)).toBe(true);
    expect(isAdminEmail('other@example.test', ADMIN_EMAILS)).toBe(false);
    expect(isAdminEmail(null, ADMIN_EMAILS)).toBe(false);
    expect(isAdminEmail('', [''])).toBe(false);
  });

  it('never makes an admin of an address the issuer says is unverified', () => {
    expect(isAdminIdentity(identity, ADMIN_EMAILS)).toBe(true);
    // An issuer that does not say is not trusted here (OIDC_EMAIL_VERIFIED_WHEN_ABSENT is the users service's).
    expect(isAdminIdentity({ ...identity, emailVerified: null }, ADMIN_EMAILS)).toBe(false);
    expect(isAdminIdentity({ ...identity, emailVerified: false }, ADMIN_EMAILS)).toBe(false);
  });
});
