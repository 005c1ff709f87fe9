import {
  FileListResponseSchema,
  FileMetadataSchema,
  IdParamsSchema,
  OkResponseSchema,
  PageQuerySchema,
} from '@coffer/contracts';
import { sendListAnswer } from '../../http/list-answer.js';
import { pageOf } from '../../http/page-cursor.js';
import { currentUser } from '../../http/current-user.js';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import { openOrAnswerRange, sendDownload } from './download-reply.js';
import type { FilesService } from './files.service.js';

const tags = ['files'];

export function filesRoutes(app: FastifyTypeBox, deps: { files: FilesService }): void {
  const { files } = deps;

  app.get(
    '/users/files',
    {
      config: { recentUser: true },
      schema: {
        tags,
        summary: "The caller's files, newest first; all of them, or a page with limit (and cursor)",
        querystring: PageQuerySchema,
        response: { 200: FileListResponseSchema },
      },
    },
    async (request, reply) => {
      const answer = await files.list(
        currentUser(request).id,
        pageOf(request.query),
        () => request.raw.socket.destroyed,
      );
      return sendListAnswer(reply, answer);
    },
  );

  app.get(
    '/users/files/:id',
    {
      schema: {
        tags,
        summary: 'Metadata of one of my files, with its encryption info',
        params: IdParamsSchema,
        response: { 200: FileMetadataSchema },
      },
    },
    async (request) => files.get(currentUser(request).id, request.params.id),
  );

  app.get(
    '/users/files/:id/download',
    {
      // A HEAD would run the handler and count a download.
      exposeHeadRoute: false,
      schema: {
        tags,
        summary: 'Stream the encrypted content (HTTP Range supported, for resuming)',
        params: IdParamsSchema,
      },
    },
    async (request, reply) => {
      const download = await openOrAnswerRange(reply, () =>
        files.download(currentUser(request), request.params.id, request.headers.range),
      );
      return sendDownload(reply, download);
    },
  );

  app.delete(
    '/users/files/:id',
    {
      schema: {
        tags,
        summary: 'Delete a file, its shares and its stored content',
        params: IdParamsSchema,
        response: { 200: OkResponseSchema },
      },
    },
    async (request) => {
      await files.delete(currentUser(request).id, request.params.id);
      return { ok: true as const };
    },
  );
}
