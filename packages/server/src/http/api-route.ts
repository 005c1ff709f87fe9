import { OkResponseSchema } from '@coffer/contracts';
import type { FastifyReply, FastifyRequest, HTTPMethods, RouteShorthandOptions } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type { CurrentUser } from '../modules/users/users.service.js';
import { currentUser, verifiedUser } from './current-user.js';
import type { FastifyTypeBox } from './fastify-typebox.js';

/** A route's answer: a contract schema, or `'ok'` for `{ ok: true }` once the handler is done. */
type AnswerSpec = TSchema | 'ok';

type Input<S> = S extends TSchema ? Static<S> : undefined;
type Output<A> = A extends TSchema ? Static<A> | FastifyReply : unknown;

/** What a handler gets: the caller and the validated request parts, typed by the route's schemas. */
export interface RouteCall<P, Q, B> {
  user: CurrentUser;
  params: Input<P>;
  query: Input<Q>;
  body: Input<B>;
  request: FastifyRequest;
  reply: FastifyReply;
}

export interface RouteSpec<P, Q, B, A> {
  /** The OpenAPI summary. */
  summary: string;
  /** Keys, sharing and invitations need a verified address; every other route any signed-in user. */
  caller?: 'verified';
  consumes?: string[];
  params?: P;
  querystring?: Q;
  body?: B;
  /** The 200 answer. None: the handler sends its own reply (a download). */
  answer?: A;
  /** The answer, sent with 201 instead. */
  created?: A;
  /** Fastify's route options beside the schema: config, bodyLimit, hooks. */
  options?: Omit<RouteShorthandOptions, 'schema'>;
}

/**
 * Returns what the route's schema answers, or the reply itself when the handler sent it (a list, a
 * download); nothing for an `'ok'` answer.
 */
export type RouteHandler<P, Q, B, A> = (
  call: RouteCall<P, Q, B>,
) => A extends 'ok' ? Promise<void> : Output<A> | Promise<Output<A>>;

type Define = <
  P extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  B extends TSchema | undefined = undefined,
  A extends AnswerSpec | undefined = undefined,
>(
  url: string,
  spec: RouteSpec<P, Q, B, A>,
  handler: RouteHandler<P, Q, B, A>,
) => void;

export interface ApiRoutes {
  get: Define;
  post: Define;
  put: Define;
  patch: Define;
  delete: Define;
}

/** The schema Fastify validates with and OpenAPI documents, keys in the order the document has always had. */
function schemaOf(tags: readonly string[], spec: RouteSpec<unknown, unknown, unknown, unknown>) {
  const answer = spec.created ?? spec.answer;
  const status = spec.created === undefined ? 200 : 201;
  const present = Object.entries({
    consumes: spec.consumes,
    params: spec.params,
    querystring: spec.querystring,
    body: spec.body,
    response: answer === undefined ? undefined : { [status]: answer === 'ok' ? OkResponseSchema : answer },
  }).filter(([, value]) => value !== undefined);
  return { tags, summary: spec.summary, ...Object.fromEntries(present) };
}

/**
 * Routes of one area (one OpenAPI tag), each thin: the caller is resolved (and must be verified where
 * the spec says so), the parts are validated by the contract's schemas, the handler calls the service
 * and its result is the answer. Register inside the authenticated `/api` scope.
 */
export function apiRoutes(app: FastifyTypeBox, tags: readonly string[]): ApiRoutes {
  const define =
    (method: HTTPMethods): Define =>
    <P, Q, B, A>(url: string, spec: RouteSpec<P, Q, B, A>, handler: RouteHandler<P, Q, B, A>) => {
      const created = spec.created !== undefined;
      const ok = (spec.created ?? spec.answer) === 'ok';
      app.route({
        method,
        url,
        ...spec.options,
        schema: schemaOf(tags, spec),
        handler: async (request, reply) => {
          const user = spec.caller === 'verified' ? verifiedUser(request) : currentUser(request);
          // Fastify validated each part against the very schema its type comes from.
          const call = {
            user,
            params: request.params as Input<P>,
            query: request.query as Input<Q>,
            body: request.body as Input<B>,
            request,
            reply,
          };
          const result: unknown = await Promise.resolve(handler(call));
          if (result === reply) return reply;
          const answer = ok ? { ok: true as const } : result;
          return created ? reply.status(201).send(answer) : answer;
        },
      });
    };
  return {
    get: define('GET'),
    post: define('POST'),
    put: define('PUT'),
    patch: define('PATCH'),
    delete: define('DELETE'),
  };
}
