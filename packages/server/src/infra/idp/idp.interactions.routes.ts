import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { InteractionResults } from 'oidc-provider';
import type Provider from 'oidc-provider';
import type { RateLimiter, RateLimitRule } from '../rate-limit/rate-limiter.js';
import { renderCheckInboxPage, renderForgotPasswordPage } from './idp.account-pages.js';
import type { AccountMail } from './idp.account-mail.js';
import type { IdpAccountsRepo } from './idp.accounts.repo.js';
import { MAX_EMAIL_LENGTH, readEmailField, readSignInForm, readSignUpForm } from './idp.forms.js';
import type { Form } from './idp.forms.js';
import type { Interaction, InteractionPages, InteractionPaths } from './idp.interaction-pages.js';
import type { FormAlert, PageContext } from './idp.pages.js';
import { SIGN_IN_ACCOUNT, SIGN_IN_ACCOUNT_IP, waitText } from './idp.limits.js';
import { AMR_PASSWORD } from './idp.provider.js';
import { sendHtml } from './idp.interaction-pages.js';
import { hashPassword, MAX_PASSWORD_LENGTH, needsRehash, verifyPassword } from './password-hash.js';
import type { PasswordHashParams } from './password-hash.js';

export interface InteractionRoutesOptions {
  provider: Provider;
  paths: InteractionPaths;
  respond: InteractionPages;
  pages: PageContext;
  /** The first-party client whose consent is implied. */
  clientId: string;
  accounts: IdpAccountsRepo;
  passwordHash: PasswordHashParams;
  /** Spends a real verification's time on unknown emails. */
  decoyVerify: (password: string) => Promise<void>;
  /** Attempt counts shared by every server instance. */
  limiter: RateLimiter;
  /** Every form post, per client IP. */
  ipRule: RateLimitRule;
  accountMail: AccountMail;
  googleEnabled: boolean;
  /**
   * After a correct password: when the account has a second step, sends the browser there and returns
   * true; false when the password alone signs in.
   */
  secondStep?: (reply: FastifyReply, uid: string, accountId: string) => Promise<boolean>;
  now: () => Date;
}

/** Notices another page (the Google callback) sends the browser back with, by `?notice=`. */
export const NOTICES: Readonly<Record<string, FormAlert>> = {
  'google-cancelled': { message: 'Google sign-in was cancelled.', kind: 'info' },
  'google-failed': { message: 'Google sign-in did not work. Please try again.' },
};

/** The result that signs `accountId` in; `create` answers a `prompt=create` request. */
export function loginResult(accountId: string, amr: string): InteractionResults {
  return { login: { accountId, amr: [amr], remember: true }, create: {} };
}

/**
 * The embedded provider's sign-in and sign-up pages and the implied consent of the first-party
 * client. Forms post back to the interaction's own URLs, which oidc-provider's interaction cookie
 * (SameSite=Lax, path-scoped to the interaction) guards against other sites.
 */
export function interactionRoutes(app: FastifyInstance, options: InteractionRoutesOptions): void {
  const { provider, paths, respond } = options;

  const { limiter } = options;

  function tooMany(retryAfterSec: number, uid: string): FormAlert {
    return {
      message: `Too many sign-in attempts. Please wait ${waitText(retryAfterSec)} and try again, or reset your password.`,
      link: { href: paths.forgot(uid), label: 'Reset your password' },
    };
  }

  /** Counts one form post from the caller's IP; returns the seconds to wait when it is over the limit. */
  async function ipWait(request: FastifyRequest): Promise<number> {
    const decision = await limiter.consume(options.ipRule, request.ip);
    return decision.allowed ? 0 : decision.retryAfterSec;
  }

  /**
   * Counts one password attempt on `email`, per account and per (account, IP), before the password is
   * checked, so concurrent guesses cannot slip past the count. Returns the seconds to wait, or 0.
   */
  async function passwordWait(request: FastifyRequest, email: string): Promise<number> {
    for (const [rule, subject] of [
      [SIGN_IN_ACCOUNT_IP, `${email}|${request.ip}`],
      [SIGN_IN_ACCOUNT, email],
    ] as const) {
      const decision = await limiter.consume(rule, subject);
      if (!decision.allowed) return decision.retryAfterSec;
    }
    return 0;
  }

  async function forgetPasswordAttempts(request: FastifyRequest, email: string): Promise<void> {
    await limiter.reset(SIGN_IN_ACCOUNT_IP, `${email}|${request.ip}`);
    await limiter.reset(SIGN_IN_ACCOUNT, email);
  }

  /** The web app is first-party: what it asks for is granted without a consent screen. */
  async function impliedConsent(interaction: Interaction): Promise<InteractionResults> {
    const accountId = interaction.session?.accountId;
    if (interaction.params.client_id !== options.clientId || accountId === undefined) {
      return { error: 'access_denied', error_description: 'This application may not sign in here' };
    }
    const grant =
      (interaction.grantId === undefined ? undefined : await provider.Grant.find(interaction.grantId)) ??
      new provider.Grant({ accountId, clientId: options.clientId });
    const { missingOIDCScope, missingOIDCClaims, missingResourceScopes } = interaction.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missingOIDCScope !== undefined) grant.addOIDCScope(missingOIDCScope.join(' '));
    if (missingOIDCClaims !== undefined) grant.addOIDCClaims(missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(' '));
    }
    const grantId = await grant.save();
    return { consent: interaction.grantId === undefined ? { grantId } : {} };
  }

  app.get<{ Params: { uid: string }; Querystring: { notice?: string } }>(
    `${paths.base}/:uid`,
    async (request, reply) => {
      const interaction = await respond.interactionOf(request, reply);
      if (interaction === null) return reply;
      const { uid } = interaction;
      switch (interaction.prompt.name) {
        case 'consent':
          return respond.finish(request, reply, await impliedConsent(interaction));
        case 'create':
          return respond.signUp(reply, 200, uid);
        default: {
          const hint = interaction.params.login_hint;
          const notice = request.query.notice;
          return respond.signIn(reply, 200, uid, {
            forgotHref: paths.forgot(uid),
            email: typeof hint === 'string' ? hint.slice(0, MAX_EMAIL_LENGTH) : '',
            alert: notice === undefined ? undefined : NOTICES[notice],
          });
        }
      }
    },
  );

  app.get<{ Params: { uid: string } }>(`${paths.base}/:uid/signup`, async (request, reply) => {
    const interaction = await respond.interactionOf(request, reply);
    if (interaction === null) return reply;
    return respond.signUp(reply, 200, interaction.uid);
  });

  app.post<{ Params: { uid: string }; Body: Form }>(`${paths.base}/:uid/login`, async (request, reply) => {
    const interaction = await respond.interactionOf(request, reply);
    if (interaction === null) return reply;
    const { uid } = interaction;
    const { email, password, fieldErrors } = readSignInForm(request.body);
    const forgotHref = paths.forgot(uid);
    if (Object.keys(fieldErrors).length > 0) {
      return respond.signIn(reply, 400, uid, { email, fieldErrors, forgotHref });
    }

    const ipRetry = await ipWait(request);
    const wait = ipRetry > 0 ? ipRetry : await passwordWait(request, email);
    if (wait > 0) {
      request.log.info('idp sign-in refused: too many attempts');
      void reply.header('retry-after', String(wait));
      return respond.signIn(reply, 429, uid, { email, alert: tooMany(wait, uid), forgotHref });
    }

    const found =
      password.length > MAX_PASSWORD_LENGTH
        ? undefined
        : await options.accounts.findCredentialsByEmail(email);
    if (found?.account.hasPassword === false) {
      const message = options.googleEnabled
        ? 'This account signs in with Google. Use “Continue with Google”.'
        : 'This account has no password.';
      return respond.signIn(reply, 401, uid, { email, alert: { message }, forgotHref });
    }
    let ok = false;
    if (found === undefined) await options.decoyVerify(password);
    else ok = await verifyPassword(password, found.passwordHash);
    if (!ok || found === undefined) {
      request.log.info('idp sign-in failed: wrong email or password');
      return respond.signIn(reply, 401, uid, {
        email,
        alert: { message: 'Incorrect email or password.' },
        forgotHref,
      });
    }

    await forgetPasswordAttempts(request, email);
    if (needsRehash(found.passwordHash, options.passwordHash)) {
      const rehashed = await hashPassword(password, options.passwordHash);
      await options.accounts.updatePasswordHash(found.account.id, rehashed, options.now());
    }
    if ((await options.secondStep?.(reply, uid, found.account.id)) === true) {
      request.log.info({ accountId: found.account.id }, 'idp password accepted: second step');
      return reply;
    }
    request.log.info({ accountId: found.account.id }, 'idp sign-in');
    return respond.finish(request, reply, loginResult(found.account.id, AMR_PASSWORD));
  });

  function checkInbox(reply: FastifyReply, uid: string, email: string, alert?: FormAlert): FastifyReply {
    return sendHtml(
      reply,
      200,
      renderCheckInboxPage(options.pages, {
        email,
        reason: 'sign-up',
        resendAction: paths.resend(uid),
        startAgainHref: paths.signUp(uid),
        signInHref: paths.page(uid),
        alert,
      }),
    );
  }

  function refusedForNow(wait: number): FormAlert {
    return { message: `Too many attempts from your network. Please wait ${waitText(wait)} and try again.` };
  }

  app.post<{ Params: { uid: string }; Body: Form }>(`${paths.base}/:uid/signup`, async (request, reply) => {
    const interaction = await respond.interactionOf(request, reply);
    if (interaction === null) return reply;
    const { uid } = interaction;
    const { values, fieldErrors, valid } = readSignUpForm(request.body);
    if (valid === undefined) return respond.signUp(reply, 400, uid, { values, fieldErrors });

    const wait = await ipWait(request);
    if (wait > 0) {
      void reply.header('retry-after', String(wait));
      return respond.signUp(reply, 429, uid, { values, alert: refusedForNow(wait) });
    }
    // Hashed whether or not an account is made: the answer takes as long for a taken address.
    const passwordHash = await hashPassword(valid.password, options.passwordHash);
    await options.accountMail.signUp({
      email: valid.email,
      name: valid.name,
      country: valid.country,
      passwordHash,
    });
    request.log.info('idp sign-up: confirmation pending');
    return checkInbox(reply, uid, valid.email);
  });

  app.post<{ Params: { uid: string }; Body: Form }>(`${paths.base}/:uid/resend`, async (request, reply) => {
    const interaction = await respond.interactionOf(request, reply);
    if (interaction === null) return reply;
    const { email, error } = readEmailField(request.body);
    if (error !== undefined) return respond.signUp(reply, 400, interaction.uid, { values: { email } });
    const wait = await ipWait(request);
    if (wait > 0) {
      void reply.header('retry-after', String(wait));
      return checkInbox(reply.status(429), interaction.uid, email, refusedForNow(wait));
    }
    await options.accountMail.resendFromPage(email);
    return checkInbox(reply, interaction.uid, email, {
      kind: 'info',
      message: 'If this address is waiting for confirmation, we sent the link again.',
    });
  });

  function forgotPage(
    reply: FastifyReply,
    status: number,
    uid: string,
    extra: { email?: string; emailError?: string; alert?: FormAlert },
  ) {
    return sendHtml(
      reply,
      status,
      renderForgotPasswordPage(options.pages, {
        action: paths.forgot(uid),
        signInHref: paths.page(uid),
        ...extra,
      }),
    );
  }

  app.get<{ Params: { uid: string } }>(`${paths.base}/:uid/forgot`, async (request, reply) => {
    const interaction = await respond.interactionOf(request, reply);
    if (interaction === null) return reply;
    return forgotPage(reply, 200, interaction.uid, {});
  });

  app.post<{ Params: { uid: string }; Body: Form }>(`${paths.base}/:uid/forgot`, async (request, reply) => {
    const interaction = await respond.interactionOf(request, reply);
    if (interaction === null) return reply;
    const { uid } = interaction;
    const { email, error } = readEmailField(request.body);
    if (error !== undefined) return forgotPage(reply, 400, uid, { email, emailError: error });
    const wait = await ipWait(request);
    if (wait > 0) {
      void reply.header('retry-after', String(wait));
      return forgotPage(reply, 429, uid, { email, alert: refusedForNow(wait) });
    }
    await options.accountMail.requestReset(email);
    return sendHtml(
      reply,
      200,
      renderCheckInboxPage(options.pages, { email, reason: 'reset', signInHref: paths.page(uid) }),
    );
  });
}
