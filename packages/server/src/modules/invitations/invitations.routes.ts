import { InvitationRequestSchema, ReceivedInvitationsResponseSchema } from '@coffer/contracts';
import { apiRoutes } from '../../http/api-route.js';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import type { InvitationsService } from './invitations.service.js';

export function invitationsRoutes(app: FastifyTypeBox, deps: { invitations: InvitationsService }): void {
  const route = apiRoutes(app, ['contacts']);

  route.post(
    '/users/invitations',
    {
      summary: 'Email an invitation to someone who has no keys yet',
      caller: 'verified',
      body: InvitationRequestSchema,
      answer: 'ok',
    },
    async ({ user, body }) => deps.invitations.invite(user, body.to),
  );

  route.get(
    '/users/invitations/received',
    {
      summary: 'Who invited me (name and email), newest first',
      caller: 'verified',
      answer: ReceivedInvitationsResponseSchema,
    },
    async ({ user }) => ({ invitations: await deps.invitations.received(user) }),
  );
}
