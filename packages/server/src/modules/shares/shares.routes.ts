import {
  FileSharesResponseSchema,
  IdParamsSchema,
  OkResponseSchema,
  ShareFileRequestSchema,
  ShareFilesRequestSchema,
  SharedFileMetadataSchema,
  PageQuerySchema,
  SharedFilesResponseSchema,
  ShareParamsSchema,
} from '@coffer/contracts';
import { sendListAnswer } from '../../http/list-answer.js';
import { pageOf } from '../../http/page-cursor.js';
import { currentUser, verifiedUser } from '../../http/current-user.js';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import { openOrAnswerRange, sendDownload } from '../files/download-reply.js';
import type { SharesService } from './shares.service.js';

const tags = ['shares'];

export function sharesRoutes(app: FastifyTypeBox, deps: { shares: SharesService }): void {
  const { shares } = deps;

  app.post(
    '/users/files/:id/share',
    {
      schema: {
        tags,
        summary: "Share one of my files: its key wrapped with the recipient's public key",
        params: IdParamsSchema,
        body: ShareFileRequestSchema,
        response: { 201: OkResponseSchema },
      },
    },
    async (request, reply) => {
      await shares.share(verifiedUser(request), request.params.id, request.body);
      return reply.status(201).send({ ok: true as const });
    },
  );

  app.post(
    '/users/shares',
    {
      schema: {
        tags,
        summary:
          'Share several of my files with one person in one action: all or none, and one notification mail',
        body: ShareFilesRequestSchema,
        response: { 201: OkResponseSchema },
      },
    },
    async (request, reply) => {
      await shares.shareFiles(verifiedUser(request), request.body);
      return reply.status(201).send({ ok: true as const });
    },
  );

  app.get(
    '/users/files/:id/shares',
    {
      schema: {
        tags,
        summary: 'Who one of my files is shared with',
        params: IdParamsSchema,
        response: { 200: FileSharesResponseSchema },
      },
    },
    async (request) => ({ shares: await shares.recipients(currentUser(request).id, request.params.id) }),
  );

  app.delete(
    '/users/files/:id/share/:email',
    {
      schema: {
        tags,
        summary: 'Revoke a share',
        params: ShareParamsSchema,
        response: { 200: OkResponseSchema },
      },
    },
    async (request) => {
      await shares.revoke(currentUser(request).id, request.params.id, request.params.email);
      return { ok: true as const };
    },
  );

  app.get(
    '/users/files/shared',
    {
      config: { recentUser: true },
      schema: {
        tags,
        summary: 'Files shared with me, newest share first; all of them, or a page with limit (and cursor)',
        querystring: PageQuerySchema,
        response: { 200: SharedFilesResponseSchema },
      },
    },
    async (request, reply) => {
      const answer = await shares.received(
        currentUser(request).id,
        pageOf(request.query),
        () => request.raw.socket.destroyed,
      );
      return sendListAnswer(reply, answer);
    },
  );

  app.get(
    '/users/files/shared/:id',
    {
      schema: {
        tags,
        summary: 'Metadata of a file shared with me, with my copy of its key',
        params: IdParamsSchema,
        response: { 200: SharedFileMetadataSchema },
      },
    },
    async (request) => shares.receivedFile(currentUser(request).id, request.params.id),
  );

  app.get(
    '/users/files/shared/:id/download',
    {
      // A HEAD would run the handler and count a download.
      exposeHeadRoute: false,
      schema: {
        tags,
        summary: 'Stream the encrypted content of a file shared with me (HTTP Range supported)',
        params: IdParamsSchema,
      },
    },
    async (request, reply) => {
      const download = await openOrAnswerRange(reply, () =>
        shares.download(currentUser(request), request.params.id, request.headers.range),
      );
      return sendDownload(reply, download);
    },
  );
}
