import { createHash, randomBytes } from 'node:crypto';
import { canonicalEmail } from '@coffer/contracts';
import { createRemoteJWKSet, customFetch, jwtVerify } from 'jose';
import type { JWTPayload, JWTVerifyGetKey } from 'jose';
import type { GoogleConfig } from '../../config.js';
import type { UpstreamIdentity } from './idp.accounts.repo.js';
import { normalizeCountry } from './countries.js';
import { CodedError } from '../../coded-error.js';

/** The `idp` claim of people who signed in through Google (as Azure AD B2C names it). */
export const GOOGLE_IDP = 'google.com';

/** Why Google sign-in did not work, in words for the person signing in. */
export class FederationError extends CodedError {
  readonly code = 'FEDERATION_FAILED';
  constructor(
    message: string,
    /** Safe to show on the sign-in page. */
    readonly userMessage: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** What the browser's trip to Google must carry, and what the callback checks it against. */
export interface FederationRequest {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface GoogleFederation {
  /** Fresh random state, nonce and PKCE verifier for one trip. */
  newRequest(): FederationRequest;
  /** Google's authorization URL for `request` (discovery on first use). */
  authorizationUrl(request: FederationRequest): Promise<URL>;
  /** Exchanges the code, verifies the id_token and returns who signed in. */
  complete(code: string, request: FederationRequest): Promise<UpstreamIdentity>;
}

export interface GoogleFederationOptions extends GoogleConfig {
  /** Our callback, registered at Google as an authorized redirect URI. */
  redirectUri: string;
  fetchImpl?: typeof fetch;
  timeoutMs?: number;
}

interface Discovery {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwks: JWTVerifyGetKey;
  tokenAuth: 'client_secret_post' | 'client_secret_basic';
}

const GENERIC = 'Google sign-in did not work. Please try again.';

function stringField(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (typeof value !== 'string' || value === '') {
    throw new FederationError(`Google discovery document has no ${name}`, GENERIC);
  }
  return value;
}

function verifiedEmail(payload: JWTPayload): string {
  const email =
    typeof payload.email === 'string' && payload.email.trim() !== '' ? canonicalEmail(payload.email) : '';
  if (email === '') {
    throw new FederationError(
      'Google id_token has no email',
      'Your Google account did not share an email address.',
    );
  }
  const verified = payload.email_verified === true || payload.email_verified === 'true';
  if (!verified) {
    throw new FederationError(
      'Google id_token email is not verified',
      'Your Google account’s email address is not verified. Verify it with Google, or create a Coffer account with a password.',
    );
  }
  return email;
}

function displayName(payload: JWTPayload): string | null {
  if (typeof payload.name === 'string' && payload.name.trim() !== '')
    return payload.name.trim().slice(0, 100);
  const parts = [payload.given_name, payload.family_name].filter(
    (part): part is string => typeof part === 'string' && part.trim() !== '',
  );
  return parts.length === 0 ? null : parts.join(' ').slice(0, 100);
}

function country(payload: JWTPayload): string | null {
  const address = payload.address;
  const candidates: unknown[] = [
    payload.country,
    typeof address === 'object' && address !== null ? (address as { country?: unknown }).country : undefined,
  ];
  for (const candidate of candidates) {
    if (typeof candidate === 'string') {
      const code = normalizeCountry(candidate);
      if (code !== null) return code;
    }
  }
  return null;
}

/**
 * The embedded provider's client at Google (or any OpenID Connect issuer configured as
 * `GOOGLE_ISSUER`): authorization code flow with state, nonce and PKCE (S256); the id_token is verified
 * with jose against the discovered JWKS (signature, iss, aud, exp, nonce) before anything is trusted.
 */
export function createGoogleFederation(options: GoogleFederationOptions): GoogleFederation {
  const fetchImpl = options.fetchImpl ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const issuer = options.issuer;
  // Google writes either form into `iss` (its documentation says so); other issuers only their own.
  const acceptedIssuers =
    new URL(issuer).host === 'accounts.google.com' ? [issuer, 'accounts.google.com'] : [issuer];
  let discovery: Promise<Discovery> | null = null;

  async function discover(): Promise<Discovery> {
    const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    const response = await fetchImpl(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) throw new FederationError(`${url} answered HTTP ${response.status}`, GENERIC);
    const body = (await response.json()) as Record<string, unknown>;
    if (body.issuer !== issuer) {
      throw new FederationError(
        `Discovery document names issuer ${String(body.issuer)}, expected ${issuer}`,
        GENERIC,
      );
    }
    const methods = Array.isArray(body.token_endpoint_auth_methods_supported)
      ? (body.token_endpoint_auth_methods_supported as unknown[])
      : ['client_secret_basic'];
    return {
      authorizationEndpoint: stringField(body, 'authorization_endpoint'),
      tokenEndpoint: stringField(body, 'token_endpoint'),
      jwks: createRemoteJWKSet(new URL(stringField(body, 'jwks_uri')), {
        timeoutDuration: timeoutMs,
        [customFetch]: fetchImpl,
      }),
      tokenAuth: methods.includes('client_secret_post') ? 'client_secret_post' : 'client_secret_basic',
    };
  }

  function getDiscovery(): Promise<Discovery> {
    const current = (discovery ??= discover());
    // A failed discovery is retried by the next sign-in instead of being remembered.
    current.catch(() => {
      if (discovery === current) discovery = null;
    });
    return current;
  }

  async function redeem(code: string, request: FederationRequest, found: Discovery): Promise<string> {
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: options.redirectUri,
      code_verifier: request.codeVerifier,
    });
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    if (found.tokenAuth === 'client_secret_post') {
      form.set('client_id', options.clientId);
      form.set('client_secret', options.clientSecret);
    } else {
      // RFC 6749 §2.3.1: each part form-encoded before base64.
      const user = encodeURIComponent(options.clientId);
      const secret = encodeURIComponent(options.clientSecret);
      headers.authorization = `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;
    }
    const response = await fetchImpl(found.tokenEndpoint, {
      method: 'POST',
      headers,
      body: form,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok) {
      const error = typeof body.error === 'string' ? body.error : `HTTP ${response.status}`;
      throw new FederationError(`Google token endpoint refused the code: ${error}`, GENERIC);
    }
    if (typeof body.id_token !== 'string') {
      throw new FederationError('Google token response has no id_token', GENERIC);
    }
    return body.id_token;
  }

  return {
    newRequest() {
      return {
        state: randomBytes(32).toString('base64url'),
        nonce: randomBytes(32).toString('base64url'),
        codeVerifier: randomBytes(32).toString('base64url'),
      };
    },

    async authorizationUrl(request) {
      const found = await getDiscovery();
      const url = new URL(found.authorizationEndpoint);
      url.search = new URLSearchParams({
        client_id: options.clientId,
        response_type: 'code',
        scope: 'openid email profile',
        redirect_uri: options.redirectUri,
        state: request.state,
        nonce: request.nonce,
        code_challenge: createHash('sha256').update(request.codeVerifier).digest('base64url'),
        code_challenge_method: 'S256',
      }).toString();
      return url;
    },

    async complete(code, request) {
      let payload: JWTPayload;
      try {
        const found = await getDiscovery();
        const idToken = await redeem(code, request, found);
        ({ payload } = await jwtVerify(idToken, found.jwks, {
          issuer: acceptedIssuers,
          audience: options.clientId,
          algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
          requiredClaims: ['exp', 'iat', 'sub'],
          clockTolerance: 30,
        }));
      } catch (error) {
        if (error instanceof FederationError) throw error;
        throw new FederationError('Google sign-in failed', GENERIC, { cause: error });
      }
      if (payload.nonce !== request.nonce)
        throw new FederationError('Google id_token nonce mismatch', GENERIC);
      if (payload.azp !== undefined && payload.azp !== options.clientId) {
        throw new FederationError('Google id_token was issued to another client', GENERIC);
      }
      if (typeof payload.sub !== 'string' || payload.sub === '') {
        throw new FederationError('Google id_token has no subject', GENERIC);
      }
      return {
        provider: GOOGLE_IDP,
        subject: payload.sub,
        email: verifiedEmail(payload),
        name: displayName(payload),
        country: country(payload),
      };
    },
  };
}
