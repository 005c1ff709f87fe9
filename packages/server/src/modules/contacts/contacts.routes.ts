import {
  AddContactRequestSchema,
  ContactSchema,
  ContactsResponseSchema,
  EmailParamsSchema,
  OkResponseSchema,
  UpdateContactRequestSchema,
} from '@coffer/contracts';
import { currentUser } from '../../http/current-user.js';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import type { ContactsService } from './contacts.service.js';

const tags = ['contacts'];

export function contactsRoutes(app: FastifyTypeBox, deps: { contacts: ContactsService }): void {
  const { contacts } = deps;

  app.get(
    '/users/contacts',
    {
      config: { recentUser: true },
      schema: { tags, summary: "The caller's contacts", response: { 200: ContactsResponseSchema } },
    },
    async (request) => ({ contacts: await contacts.list(currentUser(request).id) }),
  );

  app.post(
    '/users/contacts',
    {
      schema: {
        tags,
        summary: 'Add a contact',
        body: AddContactRequestSchema,
        response: { 201: ContactSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await contacts.add(currentUser(request), request.body)),
  );

  // The spec leaves PATCH or PUT open; both rename.
  for (const method of ['PATCH', 'PUT'] as const) {
    app.route({
      method,
      url: '/users/contacts/:email',
      schema: {
        tags,
        summary: 'Rename a contact (the email cannot change)',
        params: EmailParamsSchema,
        body: UpdateContactRequestSchema,
        response: { 200: ContactSchema },
      },
      handler: async (request) =>
        contacts.rename(currentUser(request).id, request.params.email, request.body.name),
    });
  }

  app.delete(
    '/users/contacts/:email',
    {
      schema: {
        tags,
        summary: 'Delete a contact',
        params: EmailParamsSchema,
        response: { 200: OkResponseSchema },
      },
    },
    async (request) => {
      await contacts.delete(currentUser(request).id, request.params.email);
      return { ok: true as const };
    },
  );
}
