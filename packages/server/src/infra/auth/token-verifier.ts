import { createHash } from 'node:crypto';
import { createRemoteJWKSet, customFetch, errors, jwtVerify } from 'jose';
import type { JWTPayload, JWTVerifyGetKey } from 'jose';
import { UnauthorizedError } from '../../http/errors.js';
import { identityFromClaims } from './identity.js';
import type { Identity } from './identity.js';
import { createOidcDiscovery } from './oidc-discovery.js';

export type { Identity } from './identity.js';

/** Turns a bearer access token into the caller's identity, or fails with {@link UnauthorizedError}. */
export interface TokenVerifier {
  verify(token: string): Promise<Identity>;
}

/** Asymmetric algorithms only: a shared-secret (HS*) or unsigned (`none`) token is never accepted. */
export const DEFAULT_TOKEN_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'] as const;

const ACCEPTABLE_ALGORITHMS = new Set([
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
]);

/** Far above any real access token; stops pathological input before it reaches base64 and JSON parsing. */
const MAX_TOKEN_LENGTH = 8192;

/** Minimal logger shape (pino's and Fastify's loggers fit). */
export interface VerifierLogger {
  warn(details: Record<string, unknown>, message: string): void;
}

export interface JoseTokenVerifierOptions {
  /** The issuer exactly as the IdP writes it in `iss` and in its discovery document. */
  issuer: string;
  /** Accepted `aud` value(s): the API's client id / resource identifier at the IdP. */
  audience: string | string[];
  /** Accepted signing algorithms; default {@link DEFAULT_TOKEN_ALGORITHMS}. */
  algorithms?: readonly string[];
  /** Allowed clock skew for `exp`/`nbf`, in seconds; default 30. */
  clockToleranceSec?: number;
  /** Used for discovery and JWKS requests; default the global `fetch`. */
  fetchImpl?: typeof fetch;
  /** `idp` for tokens without an `idp` claim; default the issuer's host (e.g. `local` for the embedded IdP). */
  defaultIdp?: string;
  /** Timeout of each discovery or JWKS request, in milliseconds; default 5000. */
  httpTimeoutMs?: number;
  /** After a failed discovery, calls within this many milliseconds fail without a new request; default 2000. */
  discoveryRetryAfterMs?: number;
  /** Receives why the issuer could not be used (never token content). */
  logger?: VerifierLogger;
  /**
   * How long a verified token's identity is remembered, in milliseconds (never past the token's `exp`);
   * default 60 000; 0 verifies every call. A browser sends the same token with every call until it is
   * renewed, and the signature check is most of an authenticated call's CPU time.
   */
  verifiedCacheMs?: number;
  /** Milliseconds since the epoch (tests); default `Date.now`. */
  now?: () => number;
}

/** Remembered verifications at most; the oldest is forgotten first. */
const VERIFIED_CACHE_ENTRIES = 10_000;

function checkedAlgorithms(algorithms: readonly string[]): string[] {
  if (algorithms.length === 0) throw new Error('Token verifier needs at least one algorithm');
  for (const alg of algorithms) {
    if (!ACCEPTABLE_ALGORITHMS.has(alg)) {
      throw new Error(`Token verifier refuses algorithm ${JSON.stringify(alg)}: only asymmetric signatures`);
    }
  }
  return [...algorithms];
}

/** The token itself is wrong (as opposed to the issuer being unreachable). */
function isTokenError(error: unknown): boolean {
  return (
    error instanceof errors.JWTExpired ||
    error instanceof errors.JWTClaimValidationFailed ||
    error instanceof errors.JWTInvalid ||
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWSSignatureVerificationFailed ||
    error instanceof errors.JOSEAlgNotAllowed ||
    error instanceof errors.JOSENotSupported ||
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JWKSMultipleMatchingKeys ||
    error instanceof errors.JWKInvalid
  );
}

/** A short message safe to show the caller: it names the failed check, never token content. */
function messageFor(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'Access token has expired';
  if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'nbf') {
    return 'Access token is not yet valid';
  }
  return 'Invalid access token';
}

/** Only the error's class and fixed message: jose claim errors carry the token payload as a property. */
function describe(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: String(error) };
  const cause = error.cause instanceof Error ? `${error.cause.name}: ${error.cause.message}` : undefined;
  return { error: `${error.name}: ${error.message}`, cause };
}

/**
 * Verifies bearer access tokens issued by an OpenID Connect provider: signature against the issuer's
 * JWKS (found through its discovery document), `iss`, `aud`, `exp` (required), `nbf`, the algorithm
 * allow-list and a non-empty `sub`. Discovery and keys are fetched on first use and cached, so the server
 * starts even while the provider is down. Every failure is an {@link UnauthorizedError}.
 */
export function createJoseTokenVerifier(options: JoseTokenVerifierOptions): TokenVerifier {
  const algorithms = checkedAlgorithms(options.algorithms ?? DEFAULT_TOKEN_ALGORITHMS);
  const fetchImpl = options.fetchImpl ?? fetch;
  const timeoutMs = options.httpTimeoutMs ?? 5000;
  const clockTolerance = options.clockToleranceSec ?? 30;
  const defaultIdp = options.defaultIdp ?? new URL(options.issuer).host;
  const discover = createOidcDiscovery({
    issuer: options.issuer,
    fetchImpl,
    timeoutMs,
    retryAfterMs: options.discoveryRetryAfterMs ?? 2000,
  });

  const cacheMs = options.verifiedCacheMs ?? 60_000;
  const now = options.now ?? Date.now;
  let keySet: JWTVerifyGetKey | null = null;
  async function getKeySet(): Promise<JWTVerifyGetKey> {
    if (keySet !== null) return keySet;
    const document = await discover();
    keySet ??= createRemoteJWKSet(document.jwksUri, { timeoutDuration: timeoutMs, [customFetch]: fetchImpl });
    return keySet;
  }

  async function verifyPayload(token: string): Promise<JWTPayload & { iss: string; sub: string }> {
    const keys = await getKeySet();
    const { payload } = await jwtVerify(token, keys, {
      issuer: options.issuer,
      audience: options.audience,
      algorithms,
      clockTolerance,
      currentDate: new Date(now()),
      requiredClaims: ['exp', 'sub'],
    });
    if (typeof payload.sub !== 'string' || payload.sub === '' || typeof payload.iss !== 'string') {
      throw new UnauthorizedError('Invalid access token');
    }
    return { ...payload, iss: payload.iss, sub: payload.sub };
  }

  // Keyed by the token's SHA-256, so the cache holds no bearer token.
  const verified = new Map<string, { identity: Identity; until: number }>();
  const remembered = (key: string): Identity | null => {
    const entry = verified.get(key);
    if (entry === undefined) return null;
    if (now() < entry.until) return { ...entry.identity, emails: [...entry.identity.emails] };
    verified.delete(key);
    return null;
  };
  const remember = (key: string, identity: Identity, exp: number | undefined): void => {
    if (cacheMs <= 0 || exp === undefined) return;
    const until = Math.min(now() + cacheMs, exp * 1000);
    if (until <= now()) return;
    if (verified.size >= VERIFIED_CACHE_ENTRIES) {
      const oldest = verified.keys().next();
      if (oldest.done !== true) verified.delete(oldest.value);
    }
    verified.set(key, { identity: { ...identity, emails: [...identity.emails] }, until });
  };

  return {
    async verify(token) {
      if (token === '') throw new UnauthorizedError('Missing access token');
      if (token.length > MAX_TOKEN_LENGTH) throw new UnauthorizedError('Invalid access token');
      const key = cacheMs > 0 ? createHash('sha256').update(token).digest('base64url') : '';
      const known = cacheMs > 0 ? remembered(key) : null;
      if (known !== null) return known;
      let payload: JWTPayload & { iss: string; sub: string };
      try {
        payload = await verifyPayload(token);
      } catch (error) {
        if (error instanceof UnauthorizedError) throw error;
        if (isTokenError(error)) throw new UnauthorizedError(messageFor(error));
        // Discovery or JWKS failed: the caller may be fine, the issuer is not reachable right now.
        options.logger?.warn(
          { issuer: options.issuer, ...describe(error) },
          'cannot verify tokens: issuer unusable',
        );
        throw new UnauthorizedError('Cannot verify the access token right now');
      }
      const identity = identityFromClaims(payload, defaultIdp);
      remember(key, identity, payload.exp);
      return identity;
    },
  };
}
