import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Database } from '../db/database.js';
import type { TokenVerifier } from '../auth/token-verifier.js';

export interface EmbeddedIdpOptions {
  config: Config;
  database: Database;
}

export interface EmbeddedIdp {
  /** Verifies the embedded provider's access tokens in-process (no HTTP round trip to itself). */
  tokenVerifier: TokenVerifier | null;
}

/**
 * Mounts the embedded OpenID Connect provider at `/idp` (issuer `PUBLIC_URL/idp`). Placeholder until
 * the sign-in work lands: it mounts nothing and leaves token verification to the default verifier.
 */
export async function registerEmbeddedIdp(
  _app: FastifyInstance,
  _options: EmbeddedIdpOptions,
): Promise<EmbeddedIdp> {
  await Promise.resolve();
  return { tokenVerifier: null };
}
