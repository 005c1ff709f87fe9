import {
  CreateLinkRequestSchema,
  LinkIdParamsSchema,
  LinkIdResponseSchema,
  LinksQuerySchema,
  LinksResponseSchema,
  OwnerLinkSchema,
  UpdateLinkRequestSchema,
} from '@coffer/contracts';
import { apiRoutes } from '../../http/api-route.js';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import type { RequestsService } from '../requests/requests.service.js';
import type { LinksService } from './links.service.js';

/** The owner's calls: make, list, change and revoke share links (and list file requests beside them). */
export function linksRoutes(
  app: FastifyTypeBox,
  deps: { links: LinksService; requests: RequestsService },
): void {
  const { links, requests } = deps;
  const route = apiRoutes(app, ['links']);

  route.post(
    '/users/links',
    {
      summary:
        'Make a share link for some of my files: keys wrapped under the link key, SHA-256 of its proof',
      caller: 'verified',
      body: CreateLinkRequestSchema,
      created: LinkIdResponseSchema,
    },
    async ({ user, body }) => links.create(user, body),
  );

  route.get(
    '/users/links',
    {
      summary:
        'My share links and file requests with their state, downloads and expiry (?fileId=: links of one file)',
      querystring: LinksQuerySchema,
      answer: LinksResponseSchema,
    },
    async ({ user, query }) => ({
      links: await links.list(user, query.fileId),
      requests: query.fileId === undefined ? await requests.list(user) : [],
    }),
  );

  route.patch(
    '/users/links/:linkId',
    {
      summary: 'Change a link: expiry and download limit (with a new signed link record), label',
      params: LinkIdParamsSchema,
      body: UpdateLinkRequestSchema,
      answer: OwnerLinkSchema,
    },
    async ({ user, params, body }) => links.update(user, params.linkId, body),
  );

  route.delete(
    '/users/links/:linkId',
    {
      summary: 'Revoke a link: its record and wrapped keys are deleted',
      params: LinkIdParamsSchema,
      answer: 'ok',
    },
    async ({ user, params }) => links.revoke(user, params.linkId),
  );
}
