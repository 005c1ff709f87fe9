import { ErrorCode } from '@coffer/contracts';
import type { FastifyRequest } from 'fastify';
import { authOf } from '../infra/auth/auth.plugin.js';
import type { CurrentUser } from '../modules/users/users.service.js';
import { ApiError } from './errors.js';

/** The caller of an authenticated route, as the users module resolved it. */
export function currentUser(request: FastifyRequest): CurrentUser {
  return authOf(request).user as CurrentUser;
}

/** A caller whose email address is not verified yet asked for something that needs one. */
export class EmailNotVerifiedError extends ApiError {
  constructor() {
    super(
      403,
      ErrorCode.EMAIL_NOT_VERIFIED,
      'Confirm your email address first: open the link we sent you, then sign in again.',
    );
  }
}

/**
 * The caller, who must have a verified email: keys (so nobody finds a key under an address its
 * holder has not proved), sharing and invitations.
 */
export function verifiedUser(request: FastifyRequest): CurrentUser {
  const user = currentUser(request);
  if (!user.emailVerified || user.email === null) throw new EmailNotVerifiedError();
  return user;
}
