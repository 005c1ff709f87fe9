import { StatsResponseSchema } from '@coffer/contracts';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import { currentUser } from '../../http/current-user.js';
import type { UsersService } from './users.service.js';

export function usersRoutes(app: FastifyTypeBox, deps: { users: UsersService }): void {
  app.get(
    '/users/stats',
    {
      schema: {
        tags: ['users'],
        summary: 'Usage against the plan limits',
        response: { 200: StatsResponseSchema },
      },
    },
    async (request) => deps.users.stats(currentUser(request).row),
  );
}
