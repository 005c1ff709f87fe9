import { ErrorCode, MeResponseSchema, StatsResponseSchema } from '@coffer/contracts';
import { apiRoutes } from '../../http/api-route.js';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import { ApiError } from '../../http/errors.js';
import type { AccountMail } from '../../infra/idp/idp.account-mail.js';
import type { UsersService } from './users.service.js';

export interface UsersRoutesDeps {
  users: UsersService;
  /** The embedded provider's confirmation mail; null with an external issuer (it mails its own). */
  verification: { issuer: string; accountMail: AccountMail } | null;
}

export function usersRoutes(app: FastifyTypeBox, deps: UsersRoutesDeps): void {
  const route = apiRoutes(app, ['users']);

  route.get(
    '/users/stats',
    { summary: 'Usage against the plan limits', answer: StatsResponseSchema },
    async ({ user }) => deps.users.stats(user.row),
  );

  route.get(
    '/users/me',
    {
      summary: 'Who the caller is: address, whether it is verified, admin',
      answer: MeResponseSchema,
      options: { config: { recentUser: true } },
    },
    ({ user, request }) => {
      const identity = request.auth?.identity;
      return {
        email: user.claimedEmail,
        emailVerified: user.emailVerified,
        isAdmin: user.isAdmin,
        canResendVerification: deps.verification !== null && identity?.issuer === deps.verification.issuer,
      };
    },
  );

  route.post(
    '/users/me/verification-email',
    { summary: 'Send the address confirmation mail again (embedded identity provider)', answer: 'ok' },
    async ({ user, request }) => {
      const identity = request.auth?.identity;
      if (deps.verification === null || identity?.issuer !== deps.verification.issuer) {
        throw new ApiError(
          400,
          ErrorCode.INVALID_OPERATION,
          'Your identity provider confirms addresses itself. Confirm your email there, then sign in again.',
        );
      }
      if (user.emailVerified) return;
      const result = await deps.verification.accountMail.resendFor(identity.subject);
      if (result === 'rate-limited') {
        throw new ApiError(
          429,
          ErrorCode.RATE_LIMITED,
          'We sent several emails already. Please wait an hour and try again.',
        );
      }
    },
  );
}
