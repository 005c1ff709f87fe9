import type { RateLimitRule } from '../rate-limit/rate-limiter.js';

/**
 * The embedded provider's attempt limits. They live in the database (see rate-limiter.ts), so every
 * server instance enforces the same counts. Keys are the client IP as Fastify reports it, which honours
 * X-Forwarded-For only from the proxies TRUST_PROXY names.
 */

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

/**
 * Guesses at one account's secret (a password, a code): `limit` an hour, then one attempt per growing
 * delay that starts at `firstDelaySec` and stops growing at 15 minutes.
 */
function backoffRule(name: string, limit: number, firstDelaySec: number): RateLimitRule {
  return { name, limit, windowMs: HOUR, backoff: { baseMs: firstDelaySec * 1000, maxMs: 15 * MINUTE } };
}

/** Every form post (sign-in, sign-up, resend, reset, confirm) from one client IP. */
export function ipRule(attemptsPer15Min: number): RateLimitRule {
  return { name: 'idp-ip', limit: attemptsPer15Min, windowMs: 15 * MINUTE };
}

/**
 * Password attempts on one account from one IP: after 5, one attempt per growing delay (30 s, 1 min, …,
 * at most 15 min). Someone guessing from one address never slows the owner down elsewhere.
 */
export const SIGN_IN_ACCOUNT_IP = backoffRule('idp-account-ip', 5, 30);

/**
 * Password attempts on one account from anywhere: a guesser with many addresses is slowed to one
 * attempt per growing delay (at most 15 minutes apart). The owner is never locked out for longer than
 * that, and a password reset by mail clears the count at once.
 */
export const SIGN_IN_ACCOUNT = backoffRule('idp-account', 20, 10);

/** Mails (confirmation, reset, "you already have an account") to one address. */
export const MAILS_PER_ADDRESS: RateLimitRule = { name: 'idp-mail-address', limit: 5, windowMs: HOUR };

/** "2 minutes", "45 seconds". */
export function waitText(retryAfterSec: number): string {
  if (retryAfterSec < 60) return `${retryAfterSec} second${retryAfterSec === 1 ? '' : 's'}`;
  const minutes = Math.ceil(retryAfterSec / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/**
 * Second-step codes (TOTP and recovery codes) on one account from one IP: after 5 wrong ones, one
 * attempt per growing delay (30 s … 15 min). Three TOTP codes are valid at a time out of a million, so
 * a guesser at this pace needs years.
 */
export const SECOND_FACTOR_ACCOUNT_IP = backoffRule('idp-2fa-account-ip', 5, 30);

/** Second-step codes on one account from anywhere: 10 an hour, then one per growing delay (≤ 15 min). */
export const SECOND_FACTOR_ACCOUNT = backoffRule('idp-2fa-account', 10, 60);
