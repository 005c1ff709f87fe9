import { UnauthorizedError } from '../../http/errors.js';
import type { TokenVerifier } from './token-verifier.js';

/**
 * "Sign out everywhere" for access tokens: a JWT lives out its lifetime wherever it was copied, so the
 * API refuses, per account, every token issued (`iat`) before the account's cutoff. `iat` counts whole
 * seconds, so a token of the cutoff's own second is refused too (a later sign-in takes longer than that).
 * A token without `iat` is refused once its account has a cutoff.
 */
export function withSessionCutoff(
  verifier: TokenVerifier,
  cutoffOf: (subject: string) => Promise<Date | undefined>,
): TokenVerifier {
  return {
    async verify(token) {
      const identity = await verifier.verify(token);
      const cutoff = await cutoffOf(identity.subject);
      if (
        cutoff !== undefined &&
        (identity.issuedAt === undefined || identity.issuedAt * 1000 < cutoff.getTime())
      ) {
        throw new UnauthorizedError('Access token was revoked: sign in again');
      }
      return identity;
    },
  };
}
