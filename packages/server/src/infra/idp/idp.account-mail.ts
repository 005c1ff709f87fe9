import type { FastifyBaseLogger } from 'fastify';
import { accountExistsMail, emailVerificationMail, passwordResetMail } from '../mail/mail-templates.js';
import type { MailMessage, Mailer } from '../mail/mailer.js';
import { MailDeliveryError } from '../mail/mailer.js';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';
import { EmailTakenError } from './idp.accounts.repo.js';
import type { IdpAccountsRepo, PendingCredentials } from './idp.accounts.repo.js';
import type { IdpEmailTokensRepo } from './idp.email-tokens.repo.js';
import { MAILS_PER_ADDRESS } from './idp.limits.js';

export interface AccountMailDeps {
  accounts: IdpAccountsRepo;
  tokens: IdpEmailTokensRepo;
  mailer: Mailer;
  limiter: RateLimiter;
  /** `PUBLIC_URL/idp`: every link is built from it, never from a request's headers. */
  issuer: string;
  appUrl: string;
  logger: FastifyBaseLogger;
  now: () => Date;
}

/** What became of a request to mail a confirmation link from the app (`POST /users/me/verification-email`). */
export type ResendResult = 'sent' | 'already-verified' | 'rate-limited' | 'unknown-account';

export interface AccountMail {
  /**
   * A sign-up. New address: an unconfirmed account and its confirmation mail. Address of an account
   * never confirmed: a confirmation link that installs these credentials (whoever controls the mailbox
   * wins). Confirmed address: a note to its owner. The caller cannot tell the three apart.
   */
  signUp(values: PendingCredentials & { email: string }): Promise<void>;
  /** "Resend the email" on the check-inbox page: only unconfirmed accounts get anything. */
  resendFromPage(email: string): Promise<void>;
  /** The signed-in user asks for the confirmation mail again. */
  resendFor(accountId: string): Promise<ResendResult>;
  /** "Forgot your password?": a reset link if the address has an account, nothing otherwise. */
  requestReset(email: string): Promise<void>;
}

export function createAccountMail(deps: AccountMailDeps): AccountMail {
  const { accounts, tokens, limiter, logger } = deps;

  /**
   * Sends without making the page wait: the answer takes the same time whether or not a mail goes
   * out, so its timing says nothing about which addresses have accounts. Failures are logged; the
   * person can ask again.
   */
  function deliver(message: MailMessage, kind: string): void {
    deps.mailer.send(message).catch((error: unknown) => {
      const reason = error instanceof MailDeliveryError ? error.reason : 'failed';
      logger.warn({ reason, kind }, 'identity mail not delivered');
    });
  }

  async function mayMail(email: string): Promise<boolean> {
    const decision = await limiter.consume(MAILS_PER_ADDRESS, email);
    if (!decision.allowed) logger.info({ kind: 'mail' }, 'identity mail not sent: too many to one address');
    return decision.allowed;
  }

  async function sendConfirmation(accountId: string, email: string, pending?: PendingCredentials) {
    const secret = await tokens.issue('verify', accountId, email, deps.now(), pending);
    const link = `${deps.issuer}/email/verify?token=${encodeURIComponent(secret)}`;
    deliver(emailVerificationMail({ to: email, link }), 'verify');
  }

  /** A resend keeps the credentials of the newest sign-up still waiting for this address. */
  async function resend(accountId: string, email: string): Promise<void> {
    const pending = await tokens.newestPending(accountId, deps.now());
    await sendConfirmation(accountId, email, pending ?? undefined);
  }

  return {
    async signUp(values) {
      const { email, ...credentials } = values;
      let found = await accounts.findCredentialsByEmail(email);
      if (found === undefined) {
        try {
          const account = await accounts.createLocal({ email, ...credentials }, deps.now());
          if (await mayMail(email)) await sendConfirmation(account.id, account.email);
          return;
        } catch (error) {
          if (!(error instanceof EmailTakenError)) throw error;
          found = await accounts.findCredentialsByEmail(email);
          if (found === undefined) throw error;
        }
      }
      if (!(await mayMail(email))) return;
      if (found.account.emailVerified) {
        deliver(accountExistsMail({ to: found.account.email, link: `${deps.appUrl}/landing` }), 'exists');
      } else {
        await sendConfirmation(found.account.id, found.account.email, credentials);
      }
    },

    async resendFromPage(email) {
      const found = await accounts.findCredentialsByEmail(email);
      if (found === undefined || found.account.emailVerified) return;
      if (await mayMail(found.account.email)) await resend(found.account.id, found.account.email);
    },

    async resendFor(accountId) {
      const account = await accounts.findById(accountId);
      if (account === undefined) return 'unknown-account';
      if (account.emailVerified) return 'already-verified';
      if (!(await mayMail(account.email))) return 'rate-limited';
      await resend(account.id, account.email);
      return 'sent';
    },

    async requestReset(email) {
      const found = await accounts.findCredentialsByEmail(email);
      if (found === undefined || !(await mayMail(found.account.email))) return;
      const secret = await tokens.issue('reset', found.account.id, found.account.email, deps.now());
      const link = `${deps.issuer}/password/reset?token=${encodeURIComponent(secret)}`;
      deliver(passwordResetMail({ to: found.account.email, link }), 'reset');
    },
  };
}
