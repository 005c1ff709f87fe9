/**
 * Every endpoint of the API (spec section 7 plus health and the password-change call),
 * relative to API_PREFIX, in Fastify path syntax. Schemas are named (see apiSchemas) so
 * server tests can iterate every route. Every route may also answer ErrorBody with a 4xx
 * status (and 401 when the bearer token is missing or invalid, for `user`/`admin` routes).
 */
import { apiRouteTable } from './api-route-table.js';
import type { ApiSchemaName } from './api-schemas.js';

export const API_PREFIX = '/api';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiRoute {
  readonly operationId: string;
  readonly method: HttpMethod;
  readonly path: string;
  /** `none`: public; `user`: bearer token; `admin`: bearer token of an ADMIN_EMAILS user. */
  readonly auth: 'none' | 'user' | 'admin';
  readonly params?: ApiSchemaName;
  readonly querystring?: ApiSchemaName;
  /** Schema of a JSON body, or of the text fields of a multipart body. */
  readonly body?: ApiSchemaName;
  readonly bodyKind: 'none' | 'json' | 'octet-stream' | 'multipart';
  readonly status: 200 | 201;
  /** Schema of the JSON answer, or 'stream' for application/octet-stream bytes. */
  readonly response: ApiSchemaName | 'stream';
}

export type ApiOperationId = (typeof apiRouteTable)[number]['operationId'];

/** The route table, widened to ApiRoute for iteration. */
export const apiRoutes: readonly ApiRoute[] = apiRouteTable;

/** One route by its operationId. */
export function apiRouteById(operationId: ApiOperationId): ApiRoute {
  const route = apiRoutes.find((r) => r.operationId === operationId);
  if (route === undefined) throw new Error(`Unknown operation: ${operationId}`);
  return route;
}

/**
 * Fills a Fastify-style path ('/users/files/:id/share/:email') with URL-encoded values,
 * e.g. for the web client. Throws when a parameter is missing.
 */
export function buildApiPath(path: string, params: Readonly<Record<string, string | number>> = {}): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter: ${name}`);
    return encodeURIComponent(String(value));
  });
}
