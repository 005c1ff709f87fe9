import type { FastifyRequest } from 'fastify';

/**
 * What the server logs of a request. Query strings can carry secrets (the OIDC callback's `code`,
 * `id_token_hint` on the IdP's logout URL, the demo billing session), so values are dropped and
 * only the parameter names are kept: `/idp/session/end?id_token_hint=&state=`. A "name" that does
 * not look like one (a bare value such as `?eyJhbGci…`) is dropped too. Headers are not logged at
 * all (the bearer token is in one).
 */
export function requestLogFields(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactQuery(request.url),
    remoteAddress: request.ip,
  };
}

/** What a parameter name looks like in our URLs (and OAuth's): short, no encoded or dotted parts. */
const PARAMETER_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;

/** `path?name=value&…` → `path?name=&…`; a URL without a query is returned as is. */
export function redactQuery(url: string): string {
  const mark = url.indexOf('?');
  if (mark === -1) return url;
  const names = url
    .slice(mark + 1)
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const name = pair.split('=')[0] ?? '';
      return PARAMETER_NAME.test(name) ? `${name}=` : '…';
    });
  return `${url.slice(0, mark)}?${names.join('&')}`;
}
