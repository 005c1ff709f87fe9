import { createHash, timingSafeEqual } from 'node:crypto';
import { ErrorCode, LINK_AUTH_HEADER } from '@coffer/contracts';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors.js';
import type { RateLimiter, RateLimitRule } from '../../infra/rate-limit/rate-limiter.js';

/**
 * What links and file requests share on their public side: the one answer for every id that serves
 * nothing, the check of the proof `A` (`X-Link-Auth`) against the stored SHA-256(A), and the limits
 * on wrong proofs per link and per client address (the address Fastify derives with TRUST_PROXY).
 */

const UNAVAILABLE_MESSAGE = 'This link is not available.';

/** Who calls a link's or request's page call: the proof `A` (`X-Link-Auth`) and the client address. */
export function linkCallerOf(request: FastifyRequest): {
  authHeader: string | string[] | undefined;
  address: string;
} {
  return { authHeader: request.headers[LINK_AUTH_HEADER], address: request.ip };
}

/** Unknown, expired, revoked, used up or closed: one answer, byte for byte, whatever the reason. */
export function linkUnavailable(): ApiError {
  return new ApiError(404, ErrorCode.LINK_UNAVAILABLE, UNAVAILABLE_MESSAGE);
}

/** Wrong proofs per link: 10, then one per doubling delay up to 15 minutes (a guesser crawls). */
export const LINK_AUTH_PER_LINK: RateLimitRule = {
  name: 'link-auth-link',
  limit: 10,
  windowMs: 60 * 60 * 1000,
  backoff: { baseMs: 2_000, maxMs: 15 * 60 * 1000 },
};

/** Wrong proofs per client address, across links: 30 an hour. */
export const LINK_AUTH_PER_ADDRESS: RateLimitRule = {
  name: 'link-auth-ip',
  limit: 30,
  windowMs: 60 * 60 * 1000,
};

/** Uploads started through one file request: 200 an hour. */
export const REQUEST_UPLOADS_PER_LINK: RateLimitRule = {
  name: 'request-upload-link',
  limit: 200,
  windowMs: 60 * 60 * 1000,
};

/** Uploads started through file requests from one client address: 100 an hour. */
export const REQUEST_UPLOADS_PER_ADDRESS: RateLimitRule = {
  name: 'request-upload-ip',
  limit: 100,
  windowMs: 60 * 60 * 1000,
};

/** A 429 with Retry-After, as the rest of the API answers. */
export class LinkRateLimitedError extends ApiError {
  constructor(readonly retryAfterSec: number) {
    super(429, ErrorCode.RATE_LIMITED, 'Too many attempts. Try again later.');
    this.name = 'LinkRateLimitedError';
  }
}

const A_BASE64URL = /^[A-Za-z0-9_-]{43}$/;

/** Lowercase hex SHA-256 of the bytes of `A` sent as base64url; null when the header is not one. */
export function authKeyHashOf(header: string | string[] | undefined): string | null {
  if (typeof header !== 'string' || !A_BASE64URL.test(header)) return null;
  const bytes = Buffer.from(header, 'base64url');
  if (bytes.length !== 32 || bytes.toString('base64url') !== header) return null;
  return createHash('sha256').update(bytes).digest('hex');
}

/** SHA-256 hex of a random token (download tokens are stored as their hash). */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export interface LinkAuthCheck {
  limiter: RateLimiter;
  linkId: string;
  address: string;
  header: string | string[] | undefined;
  storedHash: string;
}

/**
 * Checks `A` for an available link. A caller blocked by either limit gets 429 before anything is
 * compared; a wrong proof counts against both limits and answers 401 LINK_AUTH_FAILED. A right one
 * counts nothing (a download resumes with many requests).
 */
export async function checkLinkAuth(check: LinkAuthCheck): Promise<void> {
  const subjects: [RateLimitRule, string][] = [
    [LINK_AUTH_PER_LINK, check.linkId],
    [LINK_AUTH_PER_ADDRESS, check.address],
  ];
  for (const [rule, subject] of subjects) {
    const decision = await check.limiter.peek(rule, subject);
    if (!decision.allowed) throw new LinkRateLimitedError(decision.retryAfterSec);
  }
  const sent = authKeyHashOf(check.header);
  if (sent !== null && timingSafeEqual(Buffer.from(sent, 'hex'), Buffer.from(check.storedHash, 'hex')))
    return;
  let retryAfterSec = 0;
  for (const [rule, subject] of subjects) {
    const decision = await check.limiter.consume(rule, subject);
    if (!decision.allowed) retryAfterSec = Math.max(retryAfterSec, decision.retryAfterSec);
  }
  if (retryAfterSec > 0) throw new LinkRateLimitedError(retryAfterSec);
  throw new ApiError(401, ErrorCode.LINK_AUTH_FAILED, 'The link secret or password is wrong.');
}
