import {
  CreateFolderRequestSchema,
  FolderSchema,
  FolderShareParamsSchema,
  FolderSharesResponseSchema,
  FoldersResponseSchema,
  NodeIdParamsSchema,
  ShareFolderRequestSchema,
  SharedFolderFileParamsSchema,
  SharedFolderNodesResponseSchema,
  SharedFoldersResponseSchema,
  UpdateFolderRequestSchema,
} from '@coffer/contracts';
import { apiRoutes } from '../../http/api-route.js';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import { openOrAnswerRange, sendDownload } from '../files/download-reply.js';
import type { FolderSharesService } from './folder-shares.service.js';
import type { FoldersService } from './folders.service.js';

/** Folders of the encrypted drive and folder shares (issue 31, docs/files-api.md). */
export function foldersRoutes(
  app: FastifyTypeBox,
  deps: { folders: FoldersService; folderShares: FolderSharesService },
): void {
  const { folders, folderShares } = deps;
  const route = apiRoutes(app, ['folders']);

  route.get(
    '/users/folders',
    { summary: 'Every folder of mine, oldest first', answer: FoldersResponseSchema },
    async ({ user }) => ({ folders: await folders.list(user.id) }),
  );

  route.post(
    '/users/folders',
    { summary: 'Create a folder', body: CreateFolderRequestSchema, created: FolderSchema },
    async ({ user, body }) => folders.create(user.id, body),
  );

  route.patch(
    '/users/folders/:nodeId',
    {
      summary: 'Rename or move a folder (a move under its own subtree is refused)',
      params: NodeIdParamsSchema,
      body: UpdateFolderRequestSchema,
      answer: FolderSchema,
    },
    async ({ user, params, body }) => folders.update(user.id, params.nodeId, body),
  );

  route.delete(
    '/users/folders/:nodeId',
    {
      summary: 'Delete a folder with every folder and file below it, their shares and stored content',
      params: NodeIdParamsSchema,
      answer: 'ok',
    },
    async ({ user, params }) => folders.delete(user.id, params.nodeId),
  );

  route.post(
    '/users/folders/:nodeId/shares',
    {
      summary:
        "Share one of my folders: its key wrapped with the recipient's public key, and the signed grant",
      caller: 'verified',
      params: NodeIdParamsSchema,
      body: ShareFolderRequestSchema,
      created: 'ok',
    },
    async ({ user, params, body }) => folderShares.share(user, params.nodeId, body),
  );

  route.get(
    '/users/folders/:nodeId/shares',
    {
      summary: 'Who one of my folders is shared with',
      params: NodeIdParamsSchema,
      answer: FolderSharesResponseSchema,
    },
    async ({ user, params }) => ({ shares: await folderShares.recipients(user.id, params.nodeId) }),
  );

  route.delete(
    '/users/folders/:nodeId/shares/:email',
    { summary: 'Revoke a folder share (the whole tree)', params: FolderShareParamsSchema, answer: 'ok' },
    async ({ user, params }) => folderShares.revoke(user.id, params.nodeId, params.email),
  );

  route.get(
    '/users/folders/shared',
    { summary: 'Folders shared with me, newest share first', answer: SharedFoldersResponseSchema },
    async ({ user }) => ({ folders: await folderShares.received(user.id) }),
  );

  route.get(
    '/users/folders/shared/:nodeId/nodes',
    {
      summary: 'A folder shared with me and every folder and file below it',
      params: NodeIdParamsSchema,
      answer: SharedFolderNodesResponseSchema,
    },
    async ({ user, params }) => folderShares.receivedNodes(user.id, params.nodeId),
  );

  route.get(
    '/users/folders/shared/:nodeId/files/:fileId/download',
    {
      summary: 'Stream the encrypted content of a file below a folder shared with me (HTTP Range supported)',
      params: SharedFolderFileParamsSchema,
      // A HEAD would run the handler and count a download.
      options: { exposeHeadRoute: false },
    },
    async ({ user, params, request, reply }) => {
      const download = await openOrAnswerRange(reply, () =>
        folderShares.download(user, params.nodeId, params.fileId, request.headers.range),
      );
      return sendDownload(reply, download);
    },
  );
}
