import type {
  FileListItem,
  FileNodeChange,
  FileNodesItem,
  Folder,
  FoldersResponse,
  OkResponse,
} from '@coffer/contracts';
import { filesApi } from '../api/files';
import { seg, type ApiClient } from '../api/http';

/** The drive's JSON calls (issue 31, docs/key-hierarchy.md "API shape"). */
export const driveApi = {
  /** GET /users/files, every page. */
  files: async (api: ApiClient): Promise<FileListItem[]> => (await filesApi.list(api)).files,
  /** GET /users/files a page at a time, newest first (the next page asked for while one is used). */
  filePages: (api: ApiClient): AsyncGenerator<FileListItem[]> => filesApi.listPages(api),
  /** GET /users/folders: every folder of mine, oldest first. */
  folders: async (api: ApiClient, signal?: AbortSignal): Promise<Folder[]> =>
    (await api.request<FoldersResponse>('GET', '/users/folders', signal === undefined ? {} : { signal }))
      .folders,
  /** PUT /users/files/{id}/node: one file's place, wrap, metadata and record. */
  putFileNode: (api: ApiClient, fileId: string, body: FileNodeChange) =>
    api.request<unknown>('PUT', `/users/files/${seg(fileId)}/node`, { body }),
  /** POST /users/files/nodes: many files at once, all or none (the migration's batches). */
  putFileNodes: (api: ApiClient, files: FileNodesItem[]) =>
    api.request<OkResponse>('POST', '/users/files/nodes', { body: { files } }),
};
