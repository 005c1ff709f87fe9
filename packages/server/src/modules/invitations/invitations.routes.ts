import {
  InvitationRequestSchema,
  OkResponseSchema,
  ReceivedInvitationsResponseSchema,
} from '@coffer/contracts';
import { verifiedUser } from '../../http/current-user.js';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import type { InvitationsService } from './invitations.service.js';

export function invitationsRoutes(app: FastifyTypeBox, deps: { invitations: InvitationsService }): void {
  app.post(
    '/users/invitations',
    {
      schema: {
        tags: ['contacts'],
        summary: 'Email an invitation to someone who has no keys yet',
        body: InvitationRequestSchema,
        response: { 200: OkResponseSchema },
      },
    },
    async (request) => {
      await deps.invitations.invite(verifiedUser(request), request.body.to);
      return { ok: true as const };
    },
  );

  app.get(
    '/users/invitations/received',
    {
      schema: {
        tags: ['contacts'],
        summary: 'Who invited me (name and email), newest first',
        response: { 200: ReceivedInvitationsResponseSchema },
      },
    },
    async (request) => ({ invitations: await deps.invitations.received(verifiedUser(request)) }),
  );
}
