import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { canonicalEmail } from '@coffer/contracts';
import { UnauthorizedError } from '../../http/errors.js';
import type { Identity } from './identity.js';
import type { TokenVerifier } from './token-verifier.js';

/** The app's user record for the caller, as the users module returns it from `onIdentity`. */
export interface AuthUser {
  id: string;
  email: string | null;
  name: string | null;
  isAdmin: boolean;
}

/** What an authenticated request carries. */
export interface RequestAuth {
  identity: Identity;
  user: AuthUser;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the {@link requireAuth} hook; null on routes that do not require authentication. */
    auth: RequestAuth | null;
  }
  interface FastifyContextConfig {
    /**
     * The route only reads the caller's own data and grants nothing from their user row (no quota, plan
     * or payment id): a row this instance read for the same identity a moment ago will do
     * (`RECENT_USER_MS`), which saves the user query of a page's burst of calls.
     */
    recentUser?: boolean;
  }
}

export interface AuthOptions<U extends AuthUser = AuthUser> {
  verifier: TokenVerifier;
  /**
   * Called with every verified identity; returns the app's user (the users module creates it on first
   * sight). An {@link ApiError} thrown here (e.g. a blocked account) reaches the caller unchanged.
   */
  onIdentity: (identity: Identity, request: FastifyRequest) => Promise<U>;
}

/** Longer than any real bearer header; larger ones are refused before any parsing. */
export const MAX_AUTHORIZATION_HEADER_BYTES = 8 * 1024;

// RFC 6750 §2.1: `Bearer` (case-insensitive) then exactly one b64token.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;
const SCHEME = /^([A-Za-z0-9!#$%&'*+\-.^_`|~]+)(?: |$)/;

/**
 * Extracts the bearer token from an `Authorization` header value, or throws {@link UnauthorizedError}.
 * Messages never repeat the header.
 */
export function bearerTokenFrom(header: string | undefined): string {
  if (header === undefined || header.trim() === '') throw new UnauthorizedError('Authentication required');
  if (Buffer.byteLength(header, 'utf8') > MAX_AUTHORIZATION_HEADER_BYTES) {
    throw new UnauthorizedError('Authorization header is too large');
  }
  const match = BEARER.exec(header);
  if (match?.[1] !== undefined) return match[1];
  const scheme = SCHEME.exec(header)?.[1];
  if (scheme !== undefined && scheme.toLowerCase() !== 'bearer') {
    throw new UnauthorizedError('Authorization must use the Bearer scheme');
  }
  throw new UnauthorizedError('Malformed bearer token');
}

/**
 * A `preHandler` hook that authenticates the request: reads `Authorization: Bearer <token>`, verifies
 * it, resolves the app user through `onIdentity` and sets `request.auth`. Add it inside the plugin
 * whose routes need a signed-in caller:
 *
 * ```ts
 * app.register((scope, _opts, done) => {
 *   scope.addHook('preHandler', requireAuth({ verifier, onIdentity }));
 *   scope.get('/users/files', (request) => listFiles(authOf(request).user.id));
 *   done();
 * });
 * ```
 *
 * As an `onRequest` hook it works the same and also refuses unauthenticated callers before their body
 * is read.
 */
export function requireAuth<U extends AuthUser>(options: AuthOptions<U>): preHandlerAsyncHookHandler {
  return async function authenticate(request, reply) {
    try {
      const token = bearerTokenFrom(request.headers.authorization);
      const identity = await options.verifier.verify(token);
      const user = await options.onIdentity(identity, request);
      request.auth = { identity, user };
    } catch (error) {
      if (error instanceof UnauthorizedError) {
        // RFC 6750 §3: tell clients which scheme to use; keep the reason out of the header.
        void reply.header('www-authenticate', 'Bearer realm="coffer"');
        request.log.debug({ reason: error.message }, 'request not authenticated');
      }
      throw error;
    }
  };
}

/**
 * Prepares `app` for authenticated routes (declares `request.auth` once, on the root instance so every
 * plugin shares the request shape) and returns the hook for {@link requireAuth}'s pattern.
 */
export function registerAuth<U extends AuthUser>(
  app: FastifyInstance,
  options: AuthOptions<U>,
): preHandlerAsyncHookHandler {
  if (!app.hasRequestDecorator('auth')) app.decorateRequest('auth', null);
  return requireAuth(options);
}

/**
 * The caller's auth on a route behind {@link requireAuth}. Throws {@link UnauthorizedError} when the
 * hook did not run, so a route registered outside the authenticated scope fails closed.
 */
export function authOf(request: FastifyRequest): RequestAuth {
  // `!` rather than `=== null`: without registerAuth the property is undefined, not null.
  if (!request.auth) throw new UnauthorizedError();
  return request.auth;
}

/** Whether `email` is one of the configured admin addresses (case-insensitive). */
export function isAdminEmail(email: string | null, adminEmails: readonly string[]): boolean {
  if (email === null) return false;
  if (email.trim() === '') return false;
  const wanted = canonicalEmail(email);
  return adminEmails.some((admin) => canonicalEmail(admin) === wanted);
}

/**
 * Admins are users whose verified email is in `ADMIN_EMAILS`. Only `email_verified: true` counts here;
 * the users service also honours OIDC_EMAIL_VERIFIED_WHEN_ABSENT for issuers that never send the claim.
 */
export function isAdminIdentity(identity: Identity, adminEmails: readonly string[]): boolean {
  return identity.emailVerified === true && isAdminEmail(identity.email, adminEmails);
}
