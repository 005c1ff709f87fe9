import {
  AddContactRequestSchema,
  ContactSchema,
  ContactsResponseSchema,
  EmailParamsSchema,
  UpdateContactRequestSchema,
} from '@coffer/contracts';
import { apiRoutes } from '../../http/api-route.js';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import type { ContactsService } from './contacts.service.js';

export function contactsRoutes(app: FastifyTypeBox, deps: { contacts: ContactsService }): void {
  const { contacts } = deps;
  const route = apiRoutes(app, ['contacts']);

  route.get(
    '/users/contacts',
    {
      summary: "The caller's contacts",
      answer: ContactsResponseSchema,
      options: { config: { recentUser: true } },
    },
    async ({ user }) => ({ contacts: await contacts.list(user.id) }),
  );

  route.post(
    '/users/contacts',
    { summary: 'Add a contact', body: AddContactRequestSchema, created: ContactSchema },
    async ({ user, body }) => contacts.add(user, body),
  );

  // The spec leaves PATCH or PUT open; both rename.
  for (const define of [route.patch, route.put]) {
    define(
      '/users/contacts/:email',
      {
        summary: 'Rename a contact (the email cannot change)',
        params: EmailParamsSchema,
        body: UpdateContactRequestSchema,
        answer: ContactSchema,
      },
      async ({ user, params, body }) => contacts.rename(user.id, params.email, body.name),
    );
  }

  route.delete(
    '/users/contacts/:email',
    { summary: 'Delete a contact', params: EmailParamsSchema, answer: 'ok' },
    async ({ user, params }) => contacts.delete(user.id, params.email),
  );
}
