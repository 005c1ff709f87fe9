import { ErrorCode, MeResponseSchema, OkResponseSchema, StatsResponseSchema } from '@coffer/contracts';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import { currentUser } from '../../http/current-user.js';
import { ApiError } from '../../http/errors.js';
import type { AccountMail } from '../../infra/idp/idp.account-mail.js';
import type { UsersService } from './users.service.js';

export interface UsersRoutesDeps {
  users: UsersService;
  /** The embedded provider's confirmation mail; null with an external issuer (it mails its own). */
  verification: { issuer: string; accountMail: AccountMail } | null;
}

export function usersRoutes(app: FastifyTypeBox, deps: UsersRoutesDeps): void {
  app.get(
    '/users/stats',
    {
      schema: {
        tags: ['users'],
        summary: 'Usage against the plan limits',
        response: { 200: StatsResponseSchema },
      },
    },
    async (request) => deps.users.stats(currentUser(request).row),
  );

  app.get(
    '/users/me',
    {
      config: { recentUser: true },
      schema: {
        tags: ['users'],
        summary: 'Who the caller is: address, whether it is verified, admin',
        response: { 200: MeResponseSchema },
      },
    },
    (request) => {
      const user = currentUser(request);
      const identity = request.auth?.identity;
      return {
        email: user.claimedEmail,
        emailVerified: user.emailVerified,
        isAdmin: user.isAdmin,
        canResendVerification: deps.verification !== null && identity?.issuer === deps.verification.issuer,
      };
    },
  );

  app.post(
    '/users/me/verification-email',
    {
      schema: {
        tags: ['users'],
        summary: 'Send the address confirmation mail again (embedded identity provider)',
        response: { 200: OkResponseSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const identity = request.auth?.identity;
      if (deps.verification === null || identity?.issuer !== deps.verification.issuer) {
        throw new ApiError(
          400,
          ErrorCode.INVALID_OPERATION,
          'Your identity provider confirms addresses itself. Confirm your email there, then sign in again.',
        );
      }
      if (user.emailVerified) return { ok: true as const };
      const result = await deps.verification.accountMail.resendFor(identity.subject);
      if (result === 'rate-limited') {
        throw new ApiError(
          429,
          ErrorCode.RATE_LIMITED,
          'We sent several emails already. Please wait an hour and try again.',
        );
      }
      return { ok: true as const };
    },
  );
}
