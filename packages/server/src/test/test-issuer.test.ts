import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestIssuer, userClaims } from './test-issuer.js';
import type { TestIssuer } from './test-issuer.js';

let idp: TestIssuer;

beforeAll(async () => {
  idp = await startTestIssuer();
});

afterAll(async () => {
  await idp.close();
});

describe('startTestIssuer', () => {
  it('serves a discovery document and a JWKS on 127.0.0.1', async () => {
    expect(idp.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const discovery = (await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json()) as {
      issuer: string;
      jwks_uri: string;
    };
    expect(discovery.issuer).toBe(idp.issuer);
    const jwks = (await (await fetch(discovery.jwks_uri)).json()) as {
      keys: { kty: string; alg: string; d?: string }[];
    };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256' });
    expect(jwks.keys[0]?.d).toBeUndefined();
    expect(idp.hits).toEqual({ discovery: 1, jwks: 1 });
  });

  it('answers 503 during an outage and 404 elsewhere', async () => {
    idp.outage.jwks = true;
    expect((await fetch(`${idp.issuer}/jwks`)).status).toBe(503);
    idp.outage.jwks = false;
    expect((await fetch(`${idp.issuer}/other`)).status).toBe(404);
  });

  it('mints tokens with default claims that tests can override or remove', async () => {
    const claims = decodeJwt(await idp.mintToken({ country: undefined, name: 'Someone' }));
    const defaults = userClaims('alice');
    delete defaults.country;
    expect(claims).toMatchObject({ ...defaults, name: 'Someone', iss: idp.issuer, aud: idp.audience });
    expect(claims.country).toBeUndefined();
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000);
  });

  it('gives distinct users distinct claims', () => {
    expect(userClaims('bob')).toMatchObject({ sub: 'bob-sub', email: 'bob@example.test', name: 'Bob' });
    expect(userClaims('bob').sub).not.toBe(userClaims('carol').sub);
  });

  it('spoils tokens on request', async () => {
    const now = Date.now() / 1000;
    expect(decodeJwt(await idp.mintToken({}, { expiresInSec: -60 })).exp).toBeLessThan(now);
    expect(decodeJwt(await idp.mintToken({}, { expiresInSec: null })).exp).toBeUndefined();
    expect(decodeJwt(await idp.mintToken({}, { notBeforeSec: 60 })).nbf).toBeGreaterThan(now);
    expect(decodeJwt(await idp.mintToken({}, { audience: 'x' })).aud).toBe('x');
    expect(decodeJwt(await idp.mintToken({}, { issuer: 'https://x' })).iss).toBe('https://x');
    expect(decodeProtectedHeader(await idp.mintToken({}, { signer: 'hs256' })).alg).toBe('HS256');
    const unsigned = await idp.mintToken({}, { signer: 'none' });
    expect(decodeProtectedHeader(unsigned).alg).toBe('none');
    expect(unsigned.endsWith('.')).toBe(true);
    expect(decodeProtectedHeader(await idp.mintToken({}, { signer: 'unpublished' })).kid).toBe(
      decodeProtectedHeader(await idp.mintToken()).kid,
    );
    expect(await idp.mintToken({}, { signer: 'garbage' })).not.toContain('.');
  });
});
