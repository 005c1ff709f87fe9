import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { InteractionResults } from 'oidc-provider';
import type Provider from 'oidc-provider';
import type { AttemptLimiter } from './attempt-limiter.js';
import { waitText } from './attempt-limiter.js';
import { EmailTakenError } from './idp.accounts.repo.js';
import type { IdpAccountsRepo } from './idp.accounts.repo.js';
import { MAX_EMAIL_LENGTH, readSignInForm, readSignUpForm } from './idp.forms.js';
import type { Form } from './idp.forms.js';
import type { Interaction, InteractionPages, InteractionPaths } from './idp.interaction-pages.js';
import type { FormAlert } from './idp.pages.js';
import { AMR_PASSWORD } from './idp.provider.js';
import { hashPassword, MAX_PASSWORD_LENGTH, needsRehash, verifyPassword } from './password-hash.js';
import type { PasswordHashParams } from './password-hash.js';

export interface InteractionRoutesOptions {
  provider: Provider;
  paths: InteractionPaths;
  respond: InteractionPages;
  /** The first-party client whose consent is implied. */
  clientId: string;
  accounts: IdpAccountsRepo;
  passwordHash: PasswordHashParams;
  /** Spends a real verification's time on unknown emails. */
  decoyVerify: (password: string) => Promise<void>;
  /** Every sign-in and sign-up attempt, per client IP. */
  ipLimiter: AttemptLimiter;
  /** Failed sign-ins per email. */
  accountLimiter: AttemptLimiter;
  googleEnabled: boolean;
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

  function tooMany(retryAfterSec: number): FormAlert {
    return { message: `Too many sign-in attempts. Please wait ${waitText(retryAfterSec)} and try again.` };
  }

  /** Counts one attempt from the caller's IP; returns the seconds to wait when it is over the limit. */
  function ipWait(request: FastifyRequest): number {
    const key = `ip:${request.ip}`;
    const retryAfter = options.ipLimiter.retryAfterSec(key);
    if (retryAfter === 0) options.ipLimiter.hit(key);
    return retryAfter;
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
    if (Object.keys(fieldErrors).length > 0) return respond.signIn(reply, 400, uid, { email, fieldErrors });

    const accountKey = `account:${email}`;
    const wait = Math.max(ipWait(request), options.accountLimiter.retryAfterSec(accountKey));
    if (wait > 0) {
      request.log.info('idp sign-in refused: too many attempts');
      void reply.header('retry-after', String(wait));
      return respond.signIn(reply, 429, uid, { email, alert: tooMany(wait) });
    }

    const found =
      password.length > MAX_PASSWORD_LENGTH
        ? undefined
        : await options.accounts.findCredentialsByEmail(email);
    if (found?.account.hasPassword === false) {
      const message = options.googleEnabled
        ? 'This account signs in with Google. Use “Continue with Google”.'
        : 'This account has no password.';
      return respond.signIn(reply, 401, uid, { email, alert: { message } });
    }
    let ok = false;
    if (found === undefined) await options.decoyVerify(password);
    else ok = await verifyPassword(password, found.passwordHash);
    if (!ok || found === undefined) {
      options.accountLimiter.hit(accountKey);
      request.log.info('idp sign-in failed: wrong email or password');
      return respond.signIn(reply, 401, uid, { email, alert: { message: 'Incorrect email or password.' } });
    }

    options.accountLimiter.reset(accountKey);
    if (needsRehash(found.passwordHash, options.passwordHash)) {
      const rehashed = await hashPassword(password, options.passwordHash);
      await options.accounts.updatePasswordHash(found.account.id, rehashed, options.now());
    }
    request.log.info({ accountId: found.account.id }, 'idp sign-in');
    return respond.finish(request, reply, loginResult(found.account.id, AMR_PASSWORD));
  });

  app.post<{ Params: { uid: string }; Body: Form }>(`${paths.base}/:uid/signup`, async (request, reply) => {
    const interaction = await respond.interactionOf(request, reply);
    if (interaction === null) return reply;
    const { uid } = interaction;
    const { values, fieldErrors, valid } = readSignUpForm(request.body);
    if (valid === undefined) return respond.signUp(reply, 400, uid, { values, fieldErrors });

    const wait = ipWait(request);
    if (wait > 0) {
      void reply.header('retry-after', String(wait));
      const message = `Too many attempts from your network. Please wait ${waitText(wait)} and try again.`;
      return respond.signUp(reply, 429, uid, { values, alert: { message } });
    }

    let accountId: string;
    try {
      const passwordHash = await hashPassword(valid.password, options.passwordHash);
      const account = await options.accounts.createLocal({ ...valid, passwordHash }, options.now());
      accountId = account.id;
    } catch (error) {
      if (!(error instanceof EmailTakenError)) throw error;
      const message = 'An account with this email already exists.';
      return respond.signUp(reply, 409, uid, {
        values,
        fieldErrors: { email: message },
        alert: { message, link: { href: paths.page(uid), label: 'Sign in instead' } },
      });
    }
    request.log.info({ accountId }, 'idp account created');
    return respond.finish(request, reply, loginResult(accountId, AMR_PASSWORD));
  });
}
