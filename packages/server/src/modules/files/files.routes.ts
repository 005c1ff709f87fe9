import {
  FileListResponseSchema,
  FileMetadataSchema,
  FileNodeChangeSchema,
  FileNodesRequestSchema,
  IdParamsSchema,
  PageQuerySchema,
} from '@coffer/contracts';
import { apiRoutes } from '../../http/api-route.js';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import { sendListAnswer } from '../../http/list-answer.js';
import { pageOf } from '../../http/page-cursor.js';
import { openOrAnswerRange, sendDownload } from './download-reply.js';
import type { FilesService } from './files.service.js';

export function filesRoutes(app: FastifyTypeBox, deps: { files: FilesService }): void {
  const { files } = deps;
  const route = apiRoutes(app, ['files']);

  route.get(
    '/users/files',
    {
      summary: "The caller's files, newest first; all of them, or a page with limit (and cursor)",
      querystring: PageQuerySchema,
      answer: FileListResponseSchema,
      options: { config: { recentUser: true } },
    },
    async ({ user, query, request, reply }) => {
      const answer = await files.list(user.id, pageOf(query), () => request.raw.socket.destroyed);
      return sendListAnswer(reply, answer);
    },
  );

  route.get(
    '/users/files/:id',
    {
      summary: 'Metadata of one of my files, with its encryption info',
      params: IdParamsSchema,
      answer: FileMetadataSchema,
    },
    async ({ user, params }) => files.get(user.id, params.id),
  );

  route.get(
    '/users/files/:id/download',
    {
      summary: 'Stream the encrypted content (HTTP Range supported, for resuming)',
      params: IdParamsSchema,
      // A HEAD would run the handler and count a download.
      options: { exposeHeadRoute: false },
    },
    async ({ user, params, request, reply }) => {
      const download = await openOrAnswerRange(reply, () =>
        files.download(user, params.id, request.headers.range),
      );
      return sendDownload(reply, download);
    },
  );

  route.put(
    '/users/files/:id/node',
    {
      summary: "Set or change a file's node: its folder, wrapped key, sealed metadata and record (issue 31)",
      params: IdParamsSchema,
      body: FileNodeChangeSchema,
      answer: FileMetadataSchema,
    },
    async ({ user, params, body }) => files.setNode(user.id, params.id, body),
  );

  route.post(
    '/users/files/nodes',
    {
      summary: 'Set the nodes of many files at once, all or none (issue 31: the migration of clear names)',
      body: FileNodesRequestSchema,
      answer: 'ok',
    },
    async ({ user, body }) => files.setNodes(user.id, body.files),
  );

  route.delete(
    '/users/files/:id',
    { summary: 'Delete a file, its shares and its stored content', params: IdParamsSchema, answer: 'ok' },
    async ({ user, params }) => files.delete(user.id, params.id),
  );
}
