import type { FastifyTypeBox } from './fastify-typebox.js';

/**
 * The answers of a link's or file request's page calls (issue 30): `Cache-Control: no-store` and
 * `Referrer-Policy: no-referrer` on every one (the page's address holds the link id, its fragment
 * the secret), and `Retry-After` on a refusal that says when to come back (an error with a
 * numeric `retryAfterSec`, as the link rate limits throw).
 */
export function answerPrivately(scope: FastifyTypeBox): void {
  scope.addHook('onSend', (_request, reply, payload, next) => {
    void reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    next(null, payload);
  });
  scope.addHook('onError', (_request, reply, error, next) => {
    const retryAfterSec = (error as { retryAfterSec?: unknown }).retryAfterSec;
    if (typeof retryAfterSec === 'number') void reply.header('retry-after', String(retryAfterSec));
    next();
  });
}
