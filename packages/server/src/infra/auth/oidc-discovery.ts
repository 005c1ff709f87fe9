import { CodedError } from '../../coded-error.js';

/** The fields of an OpenID Provider Configuration document the token verifier relies on. */
export interface OidcDiscoveryDocument {
  issuer: string;
  jwksUri: URL;
}

/** Discovery failed: the issuer is unreachable, answered badly, or is not the configured issuer. */
export class OidcDiscoveryError extends CodedError {
  readonly code = 'OIDC_DISCOVERY_FAILED';
}

export interface OidcDiscoveryOptions {
  issuer: string;
  fetchImpl: typeof fetch;
  timeoutMs: number;
  /** After a failure, calls within this window fail fast instead of hitting the issuer again. */
  retryAfterMs: number;
}

/** `https://idp.example/` and `https://idp.example` have the same discovery URL (OIDC Discovery §4). */
export function discoveryUrl(issuer: string): URL {
  return new URL(`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`);
}

function parseDocument(body: unknown, issuer: string): OidcDiscoveryDocument {
  if (typeof body !== 'object' || body === null) {
    throw new OidcDiscoveryError('Discovery document is not a JSON object');
  }
  const { issuer: documentIssuer, jwks_uri: jwksUri } = body as { issuer?: unknown; jwks_uri?: unknown };
  // OIDC Discovery §4.3: the issuer in the document must be identical to the one configured.
  if (documentIssuer !== issuer) {
    throw new OidcDiscoveryError(
      `Discovery document names issuer ${JSON.stringify(documentIssuer)}, expected ${JSON.stringify(issuer)}`,
    );
  }
  if (typeof jwksUri !== 'string') throw new OidcDiscoveryError('Discovery document has no jwks_uri');
  let url: URL;
  try {
    url = new URL(jwksUri);
  } catch (cause) {
    throw new OidcDiscoveryError('Discovery document has an invalid jwks_uri', { cause });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new OidcDiscoveryError('Discovery document jwks_uri must be http(s)');
  }
  return { issuer: documentIssuer, jwksUri: url };
}

async function fetchDocument(options: OidcDiscoveryOptions): Promise<OidcDiscoveryDocument> {
  const url = discoveryUrl(options.issuer);
  let response: Response;
  try {
    response = await options.fetchImpl(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (cause) {
    throw new OidcDiscoveryError(`Cannot reach ${url.href}`, { cause });
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new OidcDiscoveryError(`${url.href} answered HTTP ${response.status}`);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch (cause) {
    throw new OidcDiscoveryError(`${url.href} did not answer JSON`, { cause });
  }
  return parseDocument(body, options.issuer);
}

/**
 * Returns a function that resolves the issuer's discovery document on first use and caches it for the
 * life of the process. Nothing is fetched at start-up, so a briefly unavailable identity provider
 * cannot stop the server from starting; a failed fetch is forgotten after `retryAfterMs` and the next
 * call tries again. Concurrent callers share one request.
 */
export function createOidcDiscovery(options: OidcDiscoveryOptions): () => Promise<OidcDiscoveryDocument> {
  let pending: Promise<OidcDiscoveryDocument> | null = null;
  // When the last fetch failed; the rejected promise is reused until `retryAfterMs` has passed, so a
  // burst of requests during an outage does not become a burst of requests to the identity provider.
  let failedAt: number | null = null;

  return () => {
    if (pending !== null && (failedAt === null || Date.now() - failedAt < options.retryAfterMs)) {
      return pending;
    }
    failedAt = null;
    const current = fetchDocument(options);
    pending = current;
    current.catch(() => {
      if (pending === current) failedAt = Date.now();
    });
    return current;
  };
}
