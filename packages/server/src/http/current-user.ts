import type { FastifyRequest } from 'fastify';
import { authOf } from '../infra/auth/auth.plugin.js';
import type { CurrentUser } from '../modules/users/users.service.js';

/** The caller of an authenticated route, as the users module resolved it. */
export function currentUser(request: FastifyRequest): CurrentUser {
  return authOf(request).user as CurrentUser;
}
