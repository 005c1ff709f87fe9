import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimiter, RateLimitRule } from '../rate-limit/rate-limiter.js';
import { renderConfirmEmailPage, renderDonePage, renderNewPasswordPage } from './idp.account-pages.js';
import type { IdpAccountsRepo } from './idp.accounts.repo.js';
import type { IdpEmailTokensRepo } from './idp.email-tokens.repo.js';
import type { Form } from './idp.forms.js';
import { MIN_PASSWORD_LENGTH } from './idp.forms.js';
import { sendHtml } from './idp.interaction-pages.js';
import { SIGN_IN_ACCOUNT, SIGN_IN_ACCOUNT_IP, waitText } from './idp.limits.js';
import type { PageContext } from './idp.pages.js';
import { hashPassword, MAX_PASSWORD_LENGTH, verifyPassword } from './password-hash.js';
import type { PasswordHashParams } from './password-hash.js';

export interface AccountLinkRoutesOptions {
  /** `/idp` */
  basePath: string;
  pages: PageContext;
  accounts: IdpAccountsRepo;
  tokens: IdpEmailTokensRepo;
  limiter: RateLimiter;
  ipRule: RateLimitRule;
  passwordHash: PasswordHashParams;
  decoyVerify: (password: string) => Promise<void>;
  /**
   * Makes the API refuse the account's access tokens issued until now: a reset ends the sessions and
   * refresh tokens, and the stateless access tokens (up to their 15 minutes) with them.
   */
  endAccessTokens: (accountId: string) => Promise<void>;
  now: () => Date;
}

export function accountLinkPaths(basePath: string) {
  return { verify: `${basePath}/email/verify`, reset: `${basePath}/password/reset` };
}

function field(form: Form, name: string): string {
  const raw = form[name];
  return typeof raw === 'string' ? raw : '';
}

/**
 * The pages behind mailed links: confirm an address (`/idp/email/verify`), choose a new password
 * (`/idp/password/reset`). Opening a link changes nothing (mail scanners open links); the form on
 * the page does, once, within the link's lifetime.
 */
export function accountLinkRoutes(app: FastifyInstance, options: AccountLinkRoutesOptions): void {
  const { pages, tokens, accounts, limiter } = options;
  const paths = accountLinkPaths(options.basePath);

  function expired(reply: FastifyReply, what: 'confirmation' | 'reset'): FastifyReply {
    return sendHtml(
      reply,
      410,
      renderDonePage(pages, {
        title: 'This link no longer works',
        message:
          what === 'confirmation'
            ? 'Confirmation links work for 24 hours, once. Sign in to Coffer to have a new one sent.'
            : 'Reset links work for one hour, once. Ask for a new one from the sign-in page.',
        error: true,
        next: { href: `${pages.appUrl}/landing`, label: 'Back to Coffer' },
      }),
    );
  }

  /** Counts a form post from the caller's IP; answers 429 and returns true when over the limit. */
  async function refusedTooMany(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const decision = await limiter.consume(options.ipRule, request.ip);
    if (decision.allowed) return false;
    void reply.header('retry-after', String(decision.retryAfterSec));
    sendHtml(
      reply,
      429,
      renderDonePage(pages, {
        title: 'Please wait a moment',
        message: `Too many attempts from your network. Please wait ${waitText(decision.retryAfterSec)} and try again.`,
        error: true,
        next: { href: `${pages.appUrl}/landing`, label: 'Back to Coffer' },
      }),
    );
    return true;
  }

  app.get<{ Querystring: { token?: string } }>(paths.verify, async (request, reply) => {
    const secret = request.query.token ?? '';
    const token = await tokens.peek('verify', secret, options.now());
    if (token === undefined) return expired(reply, 'confirmation');
    return sendHtml(
      reply,
      200,
      renderConfirmEmailPage(pages, { action: paths.verify, token: secret, email: token.email }),
    );
  });

  app.post<{ Body: Form }>(paths.verify, async (request, reply) => {
    if (await refusedTooMany(request, reply)) return reply;
    const secret = field(request.body, 'token');
    const password = field(request.body, 'password');
    const token = await tokens.peek('verify', secret, options.now());
    if (token === undefined) return expired(reply, 'confirmation');
    const page = (status: number, passwordError: string) =>
      sendHtml(
        reply,
        status,
        renderConfirmEmailPage(pages, {
          action: paths.verify,
          token: secret,
          email: token.email,
          passwordError,
        }),
      );
    if (password === '') return page(400, 'Enter the password of the account.');
    const guard = await limiter.consume(SIGN_IN_ACCOUNT, token.email);
    if (!guard.allowed) return page(429, `Too many attempts. Please wait ${waitText(guard.retryAfterSec)}.`);

    // A sign-up again with this address carries its own password; otherwise it is the account's.
    const expectedHash =
      token.pending?.passwordHash ?? (await accounts.findCredentialsByEmail(token.email))?.passwordHash;
    const ok =
      expectedHash === undefined || expectedHash === '' || password.length > MAX_PASSWORD_LENGTH
        ? (await options.decoyVerify(password), false)
        : await verifyPassword(password, expectedHash);
    if (!ok) return page(401, 'This is not the password of the account.');

    const used = await tokens.use('verify', secret, options.now());
    if (used === undefined) return expired(reply, 'confirmation');
    await accounts.confirmEmail(used.accountId, options.now(), used.pending ?? undefined);
    await limiter.reset(SIGN_IN_ACCOUNT, used.email);
    request.log.info({ accountId: used.accountId }, 'idp email confirmed');
    return sendHtml(
      reply,
      200,
      renderDonePage(pages, {
        title: 'Email address confirmed',
        message: `Thank you. ${used.email} is confirmed: sign in to Coffer to set up your encryption.`,
      }),
    );
  });

  app.get<{ Querystring: { token?: string } }>(paths.reset, async (request, reply) => {
    const secret = request.query.token ?? '';
    const token = await tokens.peek('reset', secret, options.now());
    if (token === undefined) return expired(reply, 'reset');
    return sendHtml(
      reply,
      200,
      renderNewPasswordPage(pages, { action: paths.reset, token: secret, email: token.email }),
    );
  });

  app.post<{ Body: Form }>(paths.reset, async (request, reply) => {
    if (await refusedTooMany(request, reply)) return reply;
    const secret = field(request.body, 'token');
    const password = field(request.body, 'password');
    const token = await tokens.peek('reset', secret, options.now());
    if (token === undefined) return expired(reply, 'reset');
    const fieldErrors: Partial<Record<'password' | 'confirmPassword', string>> = {};
    if (password.length < MIN_PASSWORD_LENGTH) {
      fieldErrors.password = `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`;
    } else if (password.length > MAX_PASSWORD_LENGTH) {
      fieldErrors.password = `Password must be at most ${MAX_PASSWORD_LENGTH} characters.`;
    } else if (field(request.body, 'confirmPassword') !== password) {
      fieldErrors.confirmPassword = 'Passwords do not match.';
    }
    if (Object.keys(fieldErrors).length > 0) {
      return sendHtml(
        reply,
        400,
        renderNewPasswordPage(pages, { action: paths.reset, token: secret, email: token.email, fieldErrors }),
      );
    }
    const passwordHash = await hashPassword(password, options.passwordHash);
    const used = await tokens.use('reset', secret, options.now());
    if (used === undefined) return expired(reply, 'reset');
    await accounts.resetPassword(used.accountId, passwordHash, options.now());
    await options.endAccessTokens(used.accountId);
    await limiter.reset(SIGN_IN_ACCOUNT, used.email);
    await limiter.reset(SIGN_IN_ACCOUNT_IP, `${used.email}|${request.ip}`);
    request.log.info({ accountId: used.accountId }, 'idp password reset');
    return sendHtml(
      reply,
      200,
      renderDonePage(pages, {
        title: 'Password changed',
        message:
          'Your new password is set, and the account was signed out on every device. Sign in with the new password to continue.',
      }),
    );
  });
}
