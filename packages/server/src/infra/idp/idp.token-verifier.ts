import type { JWK } from 'jose';
import { discoveryUrl } from '../auth/oidc-discovery.js';
import { createJoseTokenVerifier } from '../auth/token-verifier.js';
import type { TokenVerifier, VerifierLogger } from '../auth/token-verifier.js';
import { publicJwks } from './idp.keys.js';
import { LOCAL_IDP } from './idp.provider.js';

export interface EmbeddedTokenVerifierOptions {
  issuer: string;
  audience: string;
  /** The provider's signing keys (private halves are dropped here). */
  signing: readonly JWK[];
  logger?: VerifierLogger;
}

/**
 * Verifies the embedded provider's access tokens in-process: the same verifier (and checks: signature,
 * iss, aud, exp, nbf, algorithm) as for an external issuer, with discovery and JWKS answered from memory
 * instead of over HTTP to ourselves.
 */
export function createEmbeddedTokenVerifier(options: EmbeddedTokenVerifierOptions): TokenVerifier {
  const jwksUri = `${options.issuer}/jwks`;
  const documents = new Map<string, unknown>([
    [discoveryUrl(options.issuer).href, { issuer: options.issuer, jwks_uri: jwksUri }],
    [jwksUri, publicJwks(options.signing)],
  ]);
  const fetchFromMemory = (input: string | URL | Request): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const body = documents.get(url);
    return Promise.resolve(body === undefined ? new Response(null, { status: 404 }) : Response.json(body));
  };
  return createJoseTokenVerifier({
    issuer: options.issuer,
    audience: options.audience,
    algorithms: ['RS256'],
    defaultIdp: LOCAL_IDP,
    fetchImpl: fetchFromMemory,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
}
