import {
  FileSharesResponseSchema,
  IdParamsSchema,
  PageQuerySchema,
  ShareFileRequestSchema,
  ShareFilesRequestSchema,
  SharedFileMetadataSchema,
  SharedFilesResponseSchema,
  ShareParamsSchema,
} from '@coffer/contracts';
import { apiRoutes } from '../../http/api-route.js';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import { sendListAnswer } from '../../http/list-answer.js';
import { pageOf } from '../../http/page-cursor.js';
import { openOrAnswerRange, sendDownload } from '../files/download-reply.js';
import type { SharesService } from './shares.service.js';

export function sharesRoutes(app: FastifyTypeBox, deps: { shares: SharesService }): void {
  const { shares } = deps;
  const route = apiRoutes(app, ['shares']);

  route.post(
    '/users/files/:id/share',
    {
      summary: "Share one of my files: its key wrapped with the recipient's public key",
      caller: 'verified',
      params: IdParamsSchema,
      body: ShareFileRequestSchema,
      created: 'ok',
    },
    async ({ user, params, body }) => shares.share(user, params.id, body),
  );

  route.post(
    '/users/shares',
    {
      summary:
        'Share several of my files with one person in one action: all or none, and one notification mail',
      caller: 'verified',
      body: ShareFilesRequestSchema,
      created: 'ok',
    },
    async ({ user, body }) => shares.shareFiles(user, body),
  );

  route.get(
    '/users/files/:id/shares',
    {
      summary: 'Who one of my files is shared with',
      params: IdParamsSchema,
      answer: FileSharesResponseSchema,
    },
    async ({ user, params }) => ({ shares: await shares.recipients(user.id, params.id) }),
  );

  route.delete(
    '/users/files/:id/share/:email',
    { summary: 'Revoke a share', params: ShareParamsSchema, answer: 'ok' },
    async ({ user, params }) => shares.revoke(user.id, params.id, params.email),
  );

  route.get(
    '/users/files/shared',
    {
      summary: 'Files shared with me, newest share first; all of them, or a page with limit (and cursor)',
      querystring: PageQuerySchema,
      answer: SharedFilesResponseSchema,
      options: { config: { recentUser: true } },
    },
    async ({ user, query, request, reply }) => {
      const answer = await shares.received(user.id, pageOf(query), () => request.raw.socket.destroyed);
      return sendListAnswer(reply, answer);
    },
  );

  route.get(
    '/users/files/shared/:id',
    {
      summary: 'Metadata of a file shared with me, with my copy of its key',
      params: IdParamsSchema,
      answer: SharedFileMetadataSchema,
    },
    async ({ user, params }) => shares.receivedFile(user.id, params.id),
  );

  route.get(
    '/users/files/shared/:id/download',
    {
      summary: 'Stream the encrypted content of a file shared with me (HTTP Range supported)',
      params: IdParamsSchema,
      // A HEAD would run the handler and count a download.
      options: { exposeHeadRoute: false },
    },
    async ({ user, params, request, reply }) => {
      const download = await openOrAnswerRange(reply, () =>
        shares.download(user, params.id, request.headers.range),
      );
      return sendDownload(reply, download);
    },
  );
}
