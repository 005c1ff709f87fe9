import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Adapter, InteractionResults } from 'oidc-provider';
import type { RateLimiter, RateLimitRule } from '../rate-limit/rate-limiter.js';
import type { Form } from './idp.forms.js';
import { formText } from './idp.forms.js';
import type { InteractionPages, InteractionPaths } from './idp.interaction-pages.js';
import { sendHtml } from './idp.interaction-pages.js';
import { SECOND_FACTOR_ACCOUNT, SECOND_FACTOR_ACCOUNT_IP, waitText } from './idp.limits.js';
import type { FormAlert, PageContext } from './idp.pages.js';
import { renderSecondFactorPage } from './idp.security-pages.js';
import { PasskeyError } from './idp.security.service.js';
import type { IdpSecurity } from './idp.security.service.js';

/** `amr` values (RFC 8176) of the sign-ins this file finishes. */
export const AMR_OTP = 'otp';
export const AMR_PASSKEY = 'hwk';
export const AMR_MFA = 'mfa';
const AMR_PASSWORD = 'pwd';

/** A password sign-in waiting for its second step lasts as long as this. */
const PENDING_TTL_SEC = 10 * 60;

export interface SecondFactorRoutesOptions {
  paths: InteractionPaths;
  respond: InteractionPages;
  pages: PageContext;
  security: IdpSecurity;
  /** Password-verified sign-ins waiting for their second step, by interaction uid. */
  pending: Adapter;
  limiter: RateLimiter;
  ipRule: RateLimitRule;
  /** `/idp/assets` */
  assets: string;
}

export function secondFactorPaths(paths: InteractionPaths) {
  return {
    page: (uid: string) => `${paths.page(uid)}/second-factor`,
    totp: (uid: string) => `${paths.page(uid)}/totp`,
    recovery: (uid: string) => `${paths.page(uid)}/recovery`,
    passkeyOptions: (uid: string) => `${paths.page(uid)}/passkey/options`,
    passkeyVerify: (uid: string) => `${paths.page(uid)}/passkey/verify`,
  };
}

function signedIn(accountId: string, amr: string[]): InteractionResults {
  return { login: { accountId, amr, remember: true }, create: {} };
}

/**
 * The second step of a password sign-in (a TOTP code, a recovery code or a passkey) and passwordless
 * sign-in with a passkey, under the interaction's own URLs (its cookie binds them to the browser that
 * started the sign-in). The password step leaves `{accountId}` under the interaction's uid; only these
 * routes turn it into a sign-in.
 */
export function secondFactorRoutes(app: FastifyInstance, options: SecondFactorRoutesOptions) {
  const { respond, security, pending, limiter } = options;
  const urls = secondFactorPaths(options.paths);

  async function pendingAccount(uid: string): Promise<string | null> {
    const found = await pending.find(uid);
    return typeof found?.accountId === 'string' ? found.accountId : null;
  }

  async function page(
    reply: FastifyReply,
    status: number,
    uid: string,
    accountId: string,
    extra: { alert?: FormAlert; codeError?: string; recoveryOpen?: boolean } = {},
  ) {
    const factors = await security.secondFactorsOf(accountId);
    return sendHtml(
      reply,
      status,
      renderSecondFactorPage(options.pages, {
        totpAction: factors?.totp === true ? urls.totp(uid) : undefined,
        recoveryAction: factors?.totp === true ? urls.recovery(uid) : undefined,
        passkey:
          factors?.passkeys === true
            ? { optionsUrl: urls.passkeyOptions(uid), verifyUrl: urls.passkeyVerify(uid) }
            : undefined,
        assets: options.assets,
        cancelHref: options.paths.page(uid),
        ...extra,
      }),
    );
  }

  /** Counts one attempt (per IP, per account and IP, per account); the seconds to wait, or 0. */
  async function attemptWait(request: FastifyRequest, accountId: string): Promise<number> {
    for (const [rule, subject] of [
      [options.ipRule, request.ip],
      [SECOND_FACTOR_ACCOUNT_IP, `${accountId}|${request.ip}`],
      [SECOND_FACTOR_ACCOUNT, accountId],
    ] as const) {
      const decision = await limiter.consume(rule, subject);
      if (!decision.allowed) return decision.retryAfterSec;
    }
    return 0;
  }

  async function succeeded(request: FastifyRequest, uid: string, accountId: string): Promise<void> {
    await limiter.reset(SECOND_FACTOR_ACCOUNT_IP, `${accountId}|${request.ip}`);
    await limiter.reset(SECOND_FACTOR_ACCOUNT, accountId);
    await pending.destroy(uid);
  }

  function tooMany(wait: number): FormAlert {
    return { message: `Too many attempts. Please wait ${waitText(wait)} and try again.` };
  }

  /**
   * The interaction and the account its password step verified; null once answered (no interaction:
   * "expired"; no pending sign-in: back to the sign-in page).
   */
  async function pendingSignIn(
    request: FastifyRequest<{ Params: { uid: string } }>,
    reply: FastifyReply,
  ): Promise<{ uid: string; accountId: string } | null> {
    const interaction = await respond.interactionOf(request, reply);
    if (interaction === null) return null;
    const { uid } = interaction;
    const accountId = await pendingAccount(uid);
    if (accountId === null) {
      void reply.redirect(options.paths.page(uid), 303);
      return null;
    }
    return { uid, accountId };
  }

  app.get<{ Params: { uid: string } }>(`${options.paths.base}/:uid/second-factor`, async (request, reply) => {
    const signIn = await pendingSignIn(request, reply);
    if (signIn === null) return reply;
    return page(reply, 200, signIn.uid, signIn.accountId);
  });

  /**
   * A form that sends a one-time code (the app's code, a recovery code): the attempt limits, the check,
   * then the sign-in. A refused code shows the page again with `refused`, and with this form open.
   */
  function codeRoute(
    step: 'totp' | 'recovery',
    check: (accountId: string, form: Form | undefined) => Promise<boolean>,
    refused: { alert: FormAlert; codeError?: string },
    logs: { refused: string; signedIn: string },
  ) {
    const formOpen = step === 'recovery' ? { recoveryOpen: true } : {};
    app.post<{ Params: { uid: string }; Body: Form }>(
      `${options.paths.base}/:uid/${step}`,
      async (request, reply) => {
        const signIn = await pendingSignIn(request, reply);
        if (signIn === null) return reply;
        const { uid, accountId } = signIn;
        const wait = await attemptWait(request, accountId);
        if (wait > 0) {
          request.log.info('idp second step refused: too many attempts');
          void reply.header('retry-after', String(wait));
          return page(reply, 429, uid, accountId, { alert: tooMany(wait), ...formOpen });
        }
        if (!(await check(accountId, request.body))) {
          request.log.info(logs.refused);
          return page(reply, 401, uid, accountId, { ...refused, ...formOpen });
        }
        await succeeded(request, uid, accountId);
        request.log.info({ accountId }, logs.signedIn);
        return respond.finish(request, reply, signedIn(accountId, [AMR_PASSWORD, AMR_OTP, AMR_MFA]));
      },
    );
  }

  codeRoute(
    'totp',
    async (accountId, form) => (await security.checkTotp(accountId, formText(form, 'code'))) === 'ok',
    {
      alert: { message: 'That code did not work. Enter the newest code from your authenticator app.' },
      codeError: 'Enter the current 6-digit code.',
    },
    { refused: 'idp second step failed: wrong code', signedIn: 'idp sign-in with a second step' },
  );

  codeRoute(
    'recovery',
    (accountId, form) => security.useRecoveryCode(accountId, formText(form, 'recoveryCode')),
    { alert: { message: 'That recovery code did not work. Each code works once.' } },
    { refused: 'idp second step failed: wrong recovery code', signedIn: 'idp sign-in with a recovery code' },
  );

  app.post<{ Params: { uid: string } }>(
    `${options.paths.base}/:uid/passkey/options`,
    async (request, reply) => {
      const interaction = await respond.interactionOf(request, reply);
      if (interaction === null) return reply;
      const wait = await limiter.consume(options.ipRule, request.ip);
      if (!wait.allowed) {
        return reply.status(429).send({ code: 'RATE_LIMITED', message: tooMany(wait.retryAfterSec).message });
      }
      // After the password: the account's own passkeys. Before it: any passkey of this site.
      const accountId = await pendingAccount(interaction.uid);
      return reply
        .header('cache-control', 'no-store')
        .send(await security.authenticationOptions(interaction.uid, accountId));
    },
  );

  app.post<{ Params: { uid: string }; Body: unknown }>(
    `${options.paths.base}/:uid/passkey/verify`,
    async (request, reply) => {
      const interaction = await respond.interactionOf(request, reply);
      if (interaction === null) return reply;
      const { uid } = interaction;
      const body = request.body as { response?: unknown } | null;
      const response = body?.response;
      if (typeof response !== 'object' || response === null) {
        return reply.status(400).send({ code: 'VALIDATION_FAILED', message: 'No passkey answer.' });
      }
      const expected = await pendingAccount(uid);
      let accountId: string;
      try {
        accountId = await security.authenticate(uid, response as Parameters<IdpSecurity['authenticate']>[1]);
      } catch (error) {
        if (!(error instanceof PasskeyError)) throw error;
        request.log.info({ reason: error.reason }, 'idp passkey refused');
        return reply.status(401).send({
          code: 'PASSKEY_REFUSED',
          message: 'This passkey could not sign you in. Please try again.',
        });
      }
      if (expected !== null && expected !== accountId) {
        return reply
          .status(401)
          .send({ code: 'PASSKEY_REFUSED', message: 'This passkey belongs to another account.' });
      }
      if (expected !== null) await succeeded(request, uid, accountId);
      request.log.info({ accountId }, 'idp sign-in with a passkey');
      const amr = expected === null ? [AMR_PASSKEY] : [AMR_PASSWORD, AMR_PASSKEY, AMR_MFA];
      const redirect = await respond.result(request, reply, signedIn(accountId, amr));
      return reply.header('cache-control', 'no-store').send({ redirect });
    },
  );

  return {
    /**
     * Called after a correct password: when the account has a second factor, keeps the sign-in pending
     * and sends the browser to the second step (true); false when there is none.
     */
    start: async (reply: FastifyReply, uid: string, accountId: string): Promise<boolean> => {
      if ((await security.secondFactorsOf(accountId)) === null) return false;
      await pending.upsert(uid, { accountId }, PENDING_TTL_SEC);
      void reply.header('cache-control', 'no-store').redirect(urls.page(uid), 303);
      return true;
    },
  };
}

export type SecondFactorStep = ReturnType<typeof secondFactorRoutes>;
