import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { RateLimiter, RateLimitRule } from '../rate-limit/rate-limiter.js';
import type { IdpAccount, IdpAccountsRepo } from './idp.accounts.repo.js';
import type { Form } from './idp.forms.js';
import { formText } from './idp.forms.js';
import { sendHtml, sendMessage } from './idp.interaction-pages.js';
import {
  SECOND_FACTOR_ACCOUNT,
  SECOND_FACTOR_ACCOUNT_IP,
  SIGN_IN_ACCOUNT,
  SIGN_IN_ACCOUNT_IP,
  waitText,
} from './idp.limits.js';
import type { FormAlert, PageContext } from './idp.pages.js';
import { deviceLabel } from './idp.security-mail.js';
import { renderRecoveryCodesPage, renderSecurityPage, renderTotpEnrolPage } from './idp.security-pages.js';
import type { SecurityUrls } from './idp.security-pages.js';
import { PasskeyError } from './idp.security.service.js';
import type { IdpSecurity, TotpEnrolment } from './idp.security.service.js';
import { cleanTotpCode } from './idp.totp.js';
import { MAX_PASSWORD_LENGTH, verifyPassword } from './password-hash.js';

/** Changing factors needs a sign-in this recent: a browser left signed in cannot add its own passkey. */
export const RECENT_SIGN_IN_SEC = 15 * 60;

export interface SecurityRoutesOptions {
  /** `/idp` */
  basePath: string;
  provider: Provider;
  pages: PageContext;
  accounts: IdpAccountsRepo;
  security: IdpSecurity;
  limiter: RateLimiter;
  ipRule: RateLimitRule;
  /** Keys the forms' CSRF tokens (HMAC of the provider session's uid). */
  csrfKey: Uint8Array;
  decoyVerify: (password: string) => Promise<void>;
  now: () => Date;
}

export function securityPaths(basePath: string): SecurityUrls {
  const base = `${basePath}/account`;
  return {
    page: base,
    totpStart: `${base}/totp/start`,
    totpConfirm: `${base}/totp/confirm`,
    totpDisable: `${base}/totp/disable`,
    recoveryRenew: `${base}/recovery/renew`,
    passkeyOptions: `${base}/passkeys/options`,
    passkeyRegister: `${base}/passkeys/register`,
    passkeyRemove: (id: string) => `${base}/passkeys/${encodeURIComponent(id)}/remove`,
    signOutEverywhere: `${base}/sign-out-everywhere`,
    assets: `${basePath}/assets`,
  };
}

const NOTICES: Readonly<Record<string, FormAlert>> = {
  'passkey-added': { kind: 'info', message: 'Your passkey was added.' },
  'passkey-removed': { kind: 'info', message: 'The passkey was removed.' },
  'totp-off': { kind: 'info', message: 'The authenticator app was turned off.' },
  'totp-on': { kind: 'info', message: 'The authenticator app is on.' },
};

interface SignedIn {
  account: IdpAccount;
  sessionUid: string;
  /** Seconds since the epoch. */
  loginTs: number;
}

/**
 * The account security page of the embedded provider (`/idp/account`), for whoever is signed in to it
 * (its session cookie): TOTP, recovery codes, passkeys, sessions and "sign out everywhere". Every change
 * is a POST with a CSRF token bound to the session, and adding or removing a factor needs a sign-in of
 * the last 15 minutes.
 */
export function securityRoutes(app: FastifyInstance, options: SecurityRoutesOptions): void {
  const { provider, pages, security, limiter } = options;
  const urls = securityPaths(options.basePath);

  async function signedInOf(request: FastifyRequest, reply: FastifyReply): Promise<SignedIn | null> {
    const ctx = provider.createContext(request.raw, reply.raw);
    const session = await provider.Session.get(ctx);
    if (session.accountId === undefined) return null;
    const account = await options.accounts.findById(session.accountId);
    if (account === undefined) return null;
    return { account, sessionUid: session.uid, loginTs: session.loginTs ?? 0 };
  }

  function csrfOf(sessionUid: string): string {
    return createHmac('sha256', options.csrfKey).update(`idp-account:${sessionUid}`).digest('base64url');
  }

  function csrfOk(who: SignedIn, sent: string): boolean {
    const expected = Buffer.from(csrfOf(who.sessionUid));
    const given = Buffer.from(sent);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  function isRecent(who: SignedIn): boolean {
    return options.now().getTime() / 1000 - who.loginTs <= RECENT_SIGN_IN_SEC;
  }

  function notSignedIn(reply: FastifyReply): FastifyReply {
    return sendMessage(reply, 401, pages, {
      title: 'Sign in first',
      message: 'Sign in to Coffer, then open “Manage sign-in security” from your profile.',
      action: { href: `${pages.appUrl}/login`, label: 'Go to Coffer' },
      kind: 'error',
    });
  }

  const staleAlert: FormAlert = {
    message:
      'To change your sign-in methods, sign in again first: log out of Coffer and sign back in (a sign-in counts for 15 minutes).',
  };

  async function showPage(
    reply: FastifyReply,
    status: number,
    who: SignedIn,
    extra: { alert?: FormAlert | undefined; disableError?: string } = {},
  ) {
    return sendHtml(
      reply,
      status,
      renderSecurityPage(pages, {
        email: who.account.email,
        status: await security.status(who.account.id),
        currentSessionUid: who.sessionUid,
        csrf: csrfOf(who.sessionUid),
        urls,
        ...extra,
      }),
    );
  }

  /** The authenticator app's enrolment: its QR code and the form that confirms it with a first code. */
  function enrolPage(
    reply: FastifyReply,
    status: number,
    who: SignedIn,
    enrolment: TotpEnrolment,
    error?: string,
  ) {
    return sendHtml(
      reply,
      status,
      renderTotpEnrolPage(pages, {
        enrolment,
        action: urls.totpConfirm,
        cancelHref: urls.page,
        csrf: csrfOf(who.sessionUid),
        error,
      }),
    );
  }

  /**
   * The checks of every change: signed in, the CSRF token, the per-IP limit and (for factor changes) a
   * recent sign-in. Answers and returns null when one fails.
   */
  async function authorizeChange(
    request: FastifyRequest,
    reply: FastifyReply,
    sentCsrf: string,
    needsRecent: boolean,
  ): Promise<SignedIn | null> {
    const who = await signedInOf(request, reply);
    if (who === null) {
      notSignedIn(reply);
      return null;
    }
    if (!csrfOk(who, sentCsrf)) {
      await showPage(reply, 403, who, { alert: { message: 'This form has expired. Please try again.' } });
      return null;
    }
    const decision = await limiter.consume(options.ipRule, request.ip);
    if (!decision.allowed) {
      void reply.header('retry-after', String(decision.retryAfterSec));
      await showPage(reply, 429, who, {
        alert: {
          message: `Too many attempts from your network. Please wait ${waitText(decision.retryAfterSec)}.`,
        },
      });
      return null;
    }
    if (needsRecent && !isRecent(who)) {
      await showPage(reply, 403, who, { alert: staleAlert });
      return null;
    }
    return who;
  }

  app.get<{ Querystring: { notice?: string } }>(urls.page, async (request, reply) => {
    const who = await signedInOf(request, reply);
    if (who === null) return notSignedIn(reply);
    const notice = request.query.notice === undefined ? undefined : NOTICES[request.query.notice];
    return showPage(reply, 200, who, { alert: notice ?? (isRecent(who) ? undefined : staleAlert) });
  });

  app.post<{ Body: Form }>(urls.totpStart, async (request, reply) => {
    const who = await authorizeChange(request, reply, formText(request.body, 'csrf'), true);
    if (who === null) return reply;
    const enrolment = await security.startTotp(who.account);
    if (enrolment === null) return showPage(reply, 409, who, { alert: NOTICES['totp-on'] });
    return enrolPage(reply, 200, who, enrolment);
  });

  app.post<{ Body: Form }>(urls.totpConfirm, async (request, reply) => {
    const who = await authorizeChange(request, reply, formText(request.body, 'csrf'), true);
    if (who === null) return reply;
    const codes = await security.confirmTotp(who.account.id, formText(request.body, 'code'));
    if (codes === null) {
      const enrolment = await security.enrolment(who.account);
      if (enrolment === null) return reply.redirect(urls.page, 303);
      return enrolPage(
        reply,
        400,
        who,
        enrolment,
        'That code did not match. Check the time on your phone and enter the newest code.',
      );
    }
    request.log.info({ accountId: who.account.id }, 'idp totp enabled');
    return sendHtml(
      reply,
      200,
      renderRecoveryCodesPage(pages, {
        codes,
        continueHref: `${urls.page}?notice=totp-on`,
        title: 'Two-step verification is on',
      }),
    );
  });

  app.post<{ Body: Form }>(urls.totpDisable, async (request, reply) => {
    const who = await authorizeChange(request, reply, formText(request.body, 'csrf'), false);
    if (who === null) return reply;
    const secret = formText(request.body, 'secret');
    const { id, email } = who.account;
    // A code or the password: both are guesses to count, under the limits of their kind.
    const code = cleanTotpCode(secret);
    const rules =
      code === null
        ? ([
            [SIGN_IN_ACCOUNT_IP, `${email}|${request.ip}`],
            [SIGN_IN_ACCOUNT, email],
          ] as const)
        : ([
            [SECOND_FACTOR_ACCOUNT_IP, `${id}|${request.ip}`],
            [SECOND_FACTOR_ACCOUNT, id],
          ] as const);
    for (const [rule, subject] of rules) {
      const decision = await limiter.consume(rule, subject);
      if (!decision.allowed) {
        void reply.header('retry-after', String(decision.retryAfterSec));
        return showPage(reply, 429, who, {
          disableError: `Too many attempts. Please wait ${waitText(decision.retryAfterSec)}.`,
        });
      }
    }
    let ok: boolean;
    if (code !== null) {
      ok = (await security.checkTotp(id, code)) === 'ok';
    } else if (secret.length > MAX_PASSWORD_LENGTH) {
      ok = false;
    } else {
      const found = await options.accounts.findCredentialsByEmail(email);
      if (found === undefined || found.passwordHash === '') {
        await options.decoyVerify(secret);
        ok = false;
      } else {
        ok = await verifyPassword(secret, found.passwordHash);
      }
    }
    if (!ok) return showPage(reply, 401, who, { disableError: 'That code or password is not right.' });
    await security.disableTotp(id);
    request.log.info({ accountId: id }, 'idp totp disabled');
    return reply.redirect(`${urls.page}?notice=totp-off`, 303);
  });

  app.post<{ Body: Form }>(urls.recoveryRenew, async (request, reply) => {
    const who = await authorizeChange(request, reply, formText(request.body, 'csrf'), true);
    if (who === null) return reply;
    const status = await security.status(who.account.id);
    if (status.totp !== 'on') return reply.redirect(urls.page, 303);
    const codes = await security.renewRecoveryCodes(who.account.id);
    return sendHtml(
      reply,
      200,
      renderRecoveryCodesPage(pages, { codes, continueHref: urls.page, title: 'Your new recovery codes' }),
    );
  });

  /** The JSON half (passkey registration) answers in JSON; its CSRF token comes in a header. */
  async function authorizeJson(request: FastifyRequest, reply: FastifyReply): Promise<SignedIn | null> {
    const who = await signedInOf(request, reply);
    const csrf = request.headers['x-csrf-token'];
    if (who === null || typeof csrf !== 'string' || !csrfOk(who, csrf)) {
      await reply.status(403).send({ code: 'FORBIDDEN', message: 'Reload the page and try again.' });
      return null;
    }
    const decision = await limiter.consume(options.ipRule, request.ip);
    if (!decision.allowed) {
      await reply.status(429).send({
        code: 'RATE_LIMITED',
        message: `Too many attempts. Please wait ${waitText(decision.retryAfterSec)}.`,
      });
      return null;
    }
    if (!isRecent(who)) {
      await reply.status(403).send({ code: 'FORBIDDEN', message: staleAlert.message });
      return null;
    }
    return who;
  }

  app.post(urls.passkeyOptions, async (request, reply) => {
    const who = await authorizeJson(request, reply);
    if (who === null) return reply;
    return reply
      .header('cache-control', 'no-store')
      .send(await security.registrationOptions(who.account, who.sessionUid));
  });

  app.post<{ Body: unknown }>(urls.passkeyRegister, async (request, reply) => {
    const who = await authorizeJson(request, reply);
    if (who === null) return reply;
    const response = (request.body as { response?: unknown } | null)?.response;
    if (typeof response !== 'object' || response === null) {
      return reply.status(400).send({ code: 'VALIDATION_FAILED', message: 'No passkey answer.' });
    }
    try {
      await security.register(
        who.account,
        who.sessionUid,
        response as Parameters<IdpSecurity['register']>[2],
        deviceLabel(request.headers['user-agent'] ?? ''),
      );
    } catch (error) {
      if (!(error instanceof PasskeyError)) throw error;
      request.log.info({ reason: error.reason }, 'idp passkey registration refused');
      return reply.status(400).send({ code: 'PASSKEY_REFUSED', message: 'The passkey could not be added.' });
    }
    request.log.info({ accountId: who.account.id }, 'idp passkey added');
    return reply.send({ redirect: `${urls.page}?notice=passkey-added` });
  });

  app.post<{ Params: { id: string }; Body: Form }>(
    `${urls.page}/passkeys/:id/remove`,
    async (request, reply) => {
      const who = await authorizeChange(request, reply, formText(request.body, 'csrf'), true);
      if (who === null) return reply;
      await security.removePasskey(who.account.id, request.params.id);
      return reply.redirect(`${urls.page}?notice=passkey-removed`, 303);
    },
  );

  app.post<{ Body: Form }>(urls.signOutEverywhere, async (request, reply) => {
    // Always allowed to a signed-in browser: it is how a person locks out a lost device.
    const who = await authorizeChange(request, reply, formText(request.body, 'csrf'), false);
    if (who === null) return reply;
    await security.signOutEverywhere(who.account.id);
    request.log.info({ accountId: who.account.id }, 'idp signed out everywhere');
    return sendMessage(reply, 200, pages, {
      title: 'Signed out everywhere',
      message: 'Every device, this one too, is signed out of Coffer. Sign in again to continue.',
      action: { href: `${pages.appUrl}/login`, label: 'Sign in to Coffer' },
      kind: 'info',
    });
  });
}
