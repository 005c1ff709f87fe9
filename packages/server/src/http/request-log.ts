import type { FastifyRequest } from 'fastify';

/**
 * What the server logs of a request. Query strings can carry secrets (the OIDC callback's `code`,
 * `id_token_hint` on the IdP's logout URL, the demo billing session), so values are dropped and
 * only the parameter names are kept: `/idp/session/end?id_token_hint=&state=`. Headers are not
 * logged at all (the bearer token is in one).
 */
export function requestLogFields(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactQuery(request.url),
    remoteAddress: request.ip,
  };
}

/** `path?name=value&…` → `path?name=&…`; a URL without a query is returned as is. */
export function redactQuery(url: string): string {
  const mark = url.indexOf('?');
  if (mark === -1) return url;
  const names = url
    .slice(mark + 1)
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => `${pair.split('=')[0] ?? ''}=`);
  return `${url.slice(0, mark)}?${names.join('&')}`;
}
