import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import type { JWTPayload } from 'jose';

/** Claims a test token carries; `undefined` removes a default claim (e.g. `{ sub: undefined }`). */
export type TestClaims = Record<string, unknown>;

/** How {@link TestIssuer.mintToken} should spoil the token; the default is a valid token. */
export interface MintOptions {
  /** Seconds from now to `exp`; negative for an expired token. Default 3600. `null` omits `exp`. */
  expiresInSec?: number | null;
  /** Seconds from now to `nbf`; positive for a token not yet valid. Default: no `nbf`. */
  notBeforeSec?: number;
  /** `aud` instead of the issuer's audience. */
  audience?: string | string[];
  /** `iss` instead of the issuer's URL. */
  issuer?: string;
  /**
   * - `jwks` (default): RS256 with the published key.
   * - `unpublished`: RS256 with another key under the same `kid`, not in the JWKS.
   * - `hs256`: HMAC with a random secret.
   * - `none`: an unsigned token (`alg: none`), built by hand since jose refuses to make one.
   * - `garbage`: not a JWT at all.
   */
  signer?: 'jwks' | 'unpublished' | 'hs256' | 'none' | 'garbage';
  /** `kid` header instead of the published key's. */
  kid?: string;
}

export interface TestIssuer {
  /** The issuer URL, e.g. `http://127.0.0.1:41234` (also the `iss` of its tokens). */
  issuer: string;
  /** The `aud` of its tokens. */
  audience: string;
  mintToken(claims?: TestClaims, opts?: MintOptions): Promise<string>;
  /** Requests served so far, per endpoint. */
  hits: { discovery: number; jwks: number };
  /** Set to make an endpoint answer 503, as an identity provider that is down. */
  outage: { discovery: boolean; jwks: boolean };
  close(): Promise<void>;
}

const KID = 'test-key-1';

function capitalized(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** Claims for a distinct test user: `userClaims('alice')` → sub `alice-sub`, email `alice@example.test`. */
export function userClaims(name: string): TestClaims {
  const email = `${name}@example.test`;
  return {
    sub: `${name}-sub`,
    email,
    email_verified: true,
    emails: [email],
    name: capitalized(name),
    country: 'NL',
    idp: 'local',
  };
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function withoutUndefined(claims: TestClaims): JWTPayload {
  return Object.fromEntries(Object.entries(claims).filter(([, value]) => value !== undefined));
}

/**
 * A real OpenID Connect issuer for tests: a `node:http` server on 127.0.0.1 with a discovery document
 * and a JWKS holding one RS256 key, so tokens go through the same verification as in production.
 */
export async function startTestIssuer(options: { audience?: string } = {}): Promise<TestIssuer> {
  const audience = options.audience ?? 'coffer-api';
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const other = await generateKeyPair('RS256');
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: KID, alg: 'RS256', use: 'sig' }] };
  const hits = { discovery: 0, jwks: 0 };
  const outage = { discovery: false, jwks: false };
  let issuer = '';

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const endpoint =
      path === '/.well-known/openid-configuration' ? 'discovery' : path === '/jwks' ? 'jwks' : null;
    if (endpoint === null) {
      res.writeHead(404).end();
      return;
    }
    hits[endpoint] += 1;
    if (outage[endpoint]) {
      res.writeHead(503).end();
      return;
    }
    const body =
      endpoint === 'jwks'
        ? jwks
        : {
            issuer,
            jwks_uri: `${issuer}/jwks`,
            id_token_signing_alg_values_supported: ['RS256'],
            subject_types_supported: ['public'],
            response_types_supported: ['code'],
          };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function mintToken(claims: TestClaims = {}, opts: MintOptions = {}): Promise<string> {
    const signer = opts.signer ?? 'jwks';
    if (signer === 'garbage') return 'not-a-jwt';
    const now = Math.floor(Date.now() / 1000);
    const payload = withoutUndefined({
      ...userClaims('alice'),
      iss: opts.issuer ?? issuer,
      aud: opts.audience ?? audience,
      iat: now,
      exp: opts.expiresInSec === null ? undefined : now + (opts.expiresInSec ?? 3600),
      nbf: opts.notBeforeSec === undefined ? undefined : now + opts.notBeforeSec,
      jti: randomUUID(),
      ...claims,
    });
    const kid = opts.kid ?? KID;
    switch (signer) {
      case 'none':
        return `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(payload)}.`;
      case 'hs256':
        return new SignJWT(payload)
          .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid })
          .sign(randomBytes(32));
      case 'unpublished':
        return new SignJWT(payload)
          .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid })
          .sign(other.privateKey);
      case 'jwks':
        return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid }).sign(privateKey);
    }
  }

  return {
    issuer,
    audience,
    mintToken,
    hits,
    outage,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => {
          if (error) reject(error);
          else resolve();
        });
      }),
  };
}
