import {
  CreateRequestRequestSchema,
  LinkIdParamsSchema,
  LinkIdResponseSchema,
  OwnerRequestSchema,
  UpdateRequestRequestSchema,
} from '@coffer/contracts';
import { apiRoutes } from '../../http/api-route.js';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import type { RequestsService } from './requests.service.js';

/** The owner's calls on file requests (GET /users/links lists them). */
export function requestsRoutes(app: FastifyTypeBox, deps: { requests: RequestsService }): void {
  const { requests } = deps;
  const route = apiRoutes(app, ['links']);

  route.post(
    '/users/requests',
    {
      summary: 'Make a file request: an upload-only link with an expiry and limits of files and bytes',
      caller: 'verified',
      body: CreateRequestRequestSchema,
      created: LinkIdResponseSchema,
    },
    async ({ user, body }) => requests.create(user, body),
  );

  route.patch(
    '/users/requests/:linkId',
    {
      summary: 'Close a file request, or change its expiry',
      params: LinkIdParamsSchema,
      body: UpdateRequestRequestSchema,
      answer: OwnerRequestSchema,
    },
    async ({ user, params, body }) => requests.update(user, params.linkId, body),
  );

  route.delete(
    '/users/requests/:linkId',
    {
      summary: 'Delete a file request (the files that came through it stay)',
      params: LinkIdParamsSchema,
      answer: 'ok',
    },
    async ({ user, params }) => requests.delete(user, params.linkId),
  );
}
