import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnauthorizedError } from '../../http/errors.js';
import { startTestIssuer, userClaims } from '../../test/test-issuer.js';
import type { MintOptions, TestIssuer } from '../../test/test-issuer.js';
import { createJoseTokenVerifier } from './token-verifier.js';
import type { JoseTokenVerifierOptions, TokenVerifier } from './token-verifier.js';

let idp: TestIssuer;
let verifier: TokenVerifier;

function verifierFor(overrides: Partial<JoseTokenVerifierOptions> = {}): TokenVerifier {
  return createJoseTokenVerifier({
    issuer: idp.issuer,
    audience: idp.audience,
    discoveryRetryAfterMs: 0,
    ...overrides,
  });
}

async function rejection(promise: Promise<unknown>): Promise<UnauthorizedError> {
  const error: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UnauthorizedError);
  const unauthorized = error as UnauthorizedError;
  expect(unauthorized.code).toBe('UNAUTHORIZED');
  expect(unauthorized.statusCode).toBe(401);
  return unauthorized;
}

beforeAll(async () => {
  idp = await startTestIssuer();
  verifier = verifierFor();
});

afterAll(async () => {
  await idp.close();
});

describe('createJoseTokenVerifier', () => {
  it('accepts a valid token and maps its claims to an identity', async () => {
    const token = await idp.mintToken({ ...userClaims('alice'), email: 'Alice@Example.TEST' });
    await expect(verifier.verify(token)).resolves.toEqual({
      issuer: idp.issuer,
      subject: 'alice-sub',
      email: 'alice@example.test',
      emailVerified: true,
      emails: ['alice@example.test'],
      name: 'Alice',
      country: 'NL',
      idp: 'local',
      issuedAt: expect.any(Number) as number,
    });
  });

  it.each<[string, MintOptions, RegExp]>([
    ['expired', { expiresInSec: -3600 }, /expired/],
    ['not yet valid', { notBeforeSec: 3600 }, /not yet valid/],
    ['without exp', { expiresInSec: null }, /^Invalid access token$/],
    ['for another audience', { audience: 'someone-else' }, /^Invalid access token$/],
    ['from another issuer', { issuer: 'https://evil.example' }, /^Invalid access token$/],
    ['signed by a key not in the JWKS', { signer: 'unpublished' }, /^Invalid access token$/],
    ['with an unknown kid', { kid: 'unknown-kid' }, /^Invalid access token$/],
    ['signed with HS256', { signer: 'hs256' }, /^Invalid access token$/],
    ['unsigned (alg none)', { signer: 'none' }, /^Invalid access token$/],
    ['garbage', { signer: 'garbage' }, /^Invalid access token$/],
  ])('rejects a token %s', async (_case, opts, message) => {
    const token = await idp.mintToken({}, opts);
    const error = await rejection(verifier.verify(token));
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain(token);
  });

  it('rejects a token whose signature was tampered with', async () => {
    const [header, , signature] = (await idp.mintToken()).split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...userClaims('mallory'), iss: idp.issuer, aud: idp.audience, exp: 9e9 }),
    );
    await rejection(verifier.verify(`${header ?? ''}.${forged.toString('base64url')}.${signature ?? ''}`));
  });

  it('rejects a token without sub, an empty token and an oversize token', async () => {
    await rejection(verifier.verify(await idp.mintToken({ sub: undefined })));
    await rejection(verifier.verify(await idp.mintToken({ sub: '' })));
    expect((await rejection(verifier.verify(''))).message).toBe('Missing access token');
    await rejection(verifier.verify('a'.repeat(9000)));
  });

  it('accepts a token whose exp passed within the clock tolerance', async () => {
    const token = await idp.mintToken({}, { expiresInSec: -5 });
    await expect(verifier.verify(token)).resolves.toMatchObject({ subject: 'alice-sub' });
    await rejection(verifierFor({ clockToleranceSec: 0 }).verify(token));
  });

  it('accepts one of several audiences', async () => {
    const token = await idp.mintToken({}, { audience: ['other', idp.audience] });
    await expect(verifier.verify(token)).resolves.toMatchObject({ subject: 'alice-sub' });
  });

  it('refuses to be configured with shared-secret or unsigned algorithms', () => {
    expect(() => verifierFor({ algorithms: ['HS256'] })).toThrow(/HS256/);
    expect(() => verifierFor({ algorithms: ['none'] })).toThrow(/none/);
    expect(() => verifierFor({ algorithms: [] })).toThrow();
  });

  it('rejects an allowed-by-key but not-allowed algorithm', async () => {
    const token = await idp.mintToken();
    await rejection(verifierFor({ algorithms: ['ES256'] }).verify(token));
  });

  describe('claim mapping', () => {
    it('takes the email from the emails list when there is no email claim (Azure AD B2C)', async () => {
      const token = await idp.mintToken({
        email: undefined,
        email_verified: undefined,
        emails: ['Bob@Example.test', 'bob@work.test', 'bob@example.test'],
      });
      await expect(verifier.verify(token)).resolves.toMatchObject({
        email: 'bob@example.test',
        emailVerified: null,
        emails: ['bob@example.test', 'bob@work.test'],
      });
    });

    it('lists the email claim first, then the emails list', async () => {
      const token = await idp.mintToken({ email: 'carol@example.test', emails: ['carol@other.test'] });
      await expect(verifier.verify(token)).resolves.toMatchObject({
        email: 'carol@example.test',
        emails: ['carol@example.test', 'carol@other.test'],
      });
    });

    it('maps missing optional claims to null and idp to the issuer host', async () => {
      const token = await idp.mintToken({
        email: undefined,
        emails: undefined,
        email_verified: 'false',
        name: undefined,
        given_name: 'Dana',
        family_name: 'Scully',
        country: undefined,
        idp: undefined,
      });
      await expect(verifier.verify(token)).resolves.toEqual({
        issuer: idp.issuer,
        subject: 'alice-sub',
        email: null,
        emailVerified: false,
        emails: [],
        name: 'Dana Scully',
        country: null,
        idp: new URL(idp.issuer).host,
        issuedAt: expect.any(Number) as number,
      });
    });

    it('uses the configured default idp and falls back to address.country', async () => {
      const token = await idp.mintToken({
        idp: undefined,
        country: undefined,
        address: { country: 'BE' },
        name: ' ',
      });
      await expect(verifierFor({ defaultIdp: 'local' }).verify(token)).resolves.toMatchObject({
        idp: 'local',
        country: 'BE',
        name: null,
      });
    });
  });

  describe('issuer discovery', () => {
    it('fetches discovery and keys once, on first use', async () => {
      const before = { ...idp.hits };
      const fresh = verifierFor();
      expect(idp.hits).toEqual(before);
      for (let i = 0; i < 3; i += 1) await fresh.verify(await idp.mintToken());
      expect(idp.hits).toEqual({ discovery: before.discovery + 1, jwks: before.jwks + 1 });
    });

    it('shares one discovery request between concurrent first calls', async () => {
      const before = idp.hits.discovery;
      const fresh = verifierFor();
      const token = await idp.mintToken();
      await Promise.all([fresh.verify(token), fresh.verify(token), fresh.verify(token)]);
      expect(idp.hits.discovery).toBe(before + 1);
    });

    it('recovers when the issuer was down at the first call', async () => {
      const token = await idp.mintToken();
      const fresh = verifierFor();
      idp.outage.discovery = true;
      try {
        const error = await rejection(fresh.verify(token));
        expect(error.message).toBe('Cannot verify the access token right now');
      } finally {
        idp.outage.discovery = false;
      }
      await expect(fresh.verify(token)).resolves.toMatchObject({ subject: 'alice-sub' });
    });

    it('fails fast within the retry window after a failed discovery', async () => {
      const token = await idp.mintToken();
      const fresh = verifierFor({ discoveryRetryAfterMs: 60_000 });
      idp.outage.discovery = true;
      const before = idp.hits.discovery;
      try {
        await rejection(fresh.verify(token));
        await rejection(fresh.verify(token));
      } finally {
        idp.outage.discovery = false;
      }
      expect(idp.hits.discovery).toBe(before + 1);
    });

    it('rejects tokens while the JWKS is unreachable, then recovers', async () => {
      const token = await idp.mintToken();
      const fresh = verifierFor();
      idp.outage.jwks = true;
      try {
        await rejection(fresh.verify(token));
      } finally {
        idp.outage.jwks = false;
      }
      await expect(fresh.verify(token)).resolves.toMatchObject({ subject: 'alice-sub' });
    });

    it('rejects everything when the discovery document names another issuer', async () => {
      const warnings: string[] = [];
      const mismatched = verifierFor({
        issuer: `${idp.issuer}/`,
        logger: { warn: (details) => warnings.push(JSON.stringify(details)) },
      });
      const token = await idp.mintToken({}, { issuer: `${idp.issuer}/` });
      await rejection(mismatched.verify(token));
      expect(warnings.join()).toMatch(/expected/);
      expect(warnings.join()).not.toContain(token);
    });

    it('rejects tokens when the issuer cannot be reached at all', async () => {
      const unreachable = createJoseTokenVerifier({
        issuer: 'http://127.0.0.1:9',
        audience: idp.audience,
        httpTimeoutMs: 1000,
      });
      await rejection(unreachable.verify(await idp.mintToken()));
    });

    it('uses the given fetch for discovery and keys', async () => {
      const urls: string[] = [];
      const fetchImpl: typeof fetch = (input, init) => {
        urls.push(input instanceof Request ? input.url : String(input));
        return fetch(input, init);
      };
      await verifierFor({ fetchImpl }).verify(await idp.mintToken());
      expect(urls).toEqual([`${idp.issuer}/.well-known/openid-configuration`, `${idp.issuer}/jwks`]);
    });
  });
  describe('remembered verifications', () => {
    // A clock set back before the token's `nbf` tells whether a call checked the token again: a check
    // refuses it ("not yet valid"), a remembered verification does not.
    it('answers a token it verified within the cache time without checking it again', async () => {
      const start = Date.now();
      let clock = start;
      const cached = verifierFor({ now: () => clock });
      const uncached = verifierFor({ now: () => clock, verifiedCacheMs: 0 });
      const token = await idp.mintToken({}, { notBeforeSec: 0 });
      await expect(cached.verify(token)).resolves.toMatchObject({ subject: 'alice-sub' });
      await expect(uncached.verify(token)).resolves.toMatchObject({ subject: 'alice-sub' });
      clock = start - 120_000;
      await expect(cached.verify(token)).resolves.toMatchObject({ subject: 'alice-sub' });
      expect((await rejection(uncached.verify(token))).message).toBe('Access token is not yet valid');
    });

    it('never remembers a token past its exp', async () => {
      const start = Date.now();
      let clock = start;
      const cached = verifierFor({ now: () => clock, clockToleranceSec: 0 });
      const token = await idp.mintToken({}, { expiresInSec: 10 });
      await cached.verify(token);
      clock = start + 11_000;
      expect((await rejection(cached.verify(token))).message).toBe('Access token has expired');
    });

    it('returns a copy: a caller changing its identity does not change the next answer', async () => {
      const cached = verifierFor();
      const token = await idp.mintToken({ ...userClaims('carol'), email: 'carol@example.test' });
      const first = await cached.verify(token);
      first.emails.push('mallory@example.test');
      first.email = 'mallory@example.test';
      await expect(cached.verify(token)).resolves.toMatchObject({
        email: 'carol@example.test',
        emails: ['carol@example.test'],
      });
    });
  });
});
