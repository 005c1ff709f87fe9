/**
 * Typed calls of the file, share and upload-list endpoints (spec section 7). Uploads and downloads
 * themselves go through the transfer engine (`lib/transfers`); these are the JSON calls around them.
 */
import {
  RECENT_UPLOADS_LIMIT,
  type FileListResponse,
  type FileMetadata,
  type FileShare,
  type FileSharesResponse,
  type OkResponse,
  type ShareFileRequest,
  type ShareFilesRequest,
  type SharedFileItem,
  type SharedFileMetadata,
  type UploadsResponse,
} from '@coffer/contracts';
import { seg, type ApiClient } from './http';

/**
 * Lists are read a page at a time: a user with tens of thousands of files gets them in answers of a
 * bounded size, and the page stays responsive while they arrive.
 */
export const LIST_PAGE_SIZE = 500;

/**
 * The pages of a paged list, one at a time; the next page is already asked for while the caller
 * works on this one (My Files opens a page's names while the next arrives).
 */
async function* pagesOf<T>(api: ApiClient, path: string): AsyncGenerator<T[]> {
  const pageAt = (cursor: string | undefined) =>
    api.request<{ files: T[]; nextCursor?: string }>(
      'GET',
      `${path}?limit=${LIST_PAGE_SIZE}${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
    );
  let page = await pageAt(undefined);
  for (;;) {
    const next = page.nextCursor === undefined ? undefined : pageAt(page.nextCursor);
    // Not awaited until its turn: a failure surfaces there (and is not left unhandled meanwhile).
    next?.catch(() => undefined);
    yield page.files;
    if (next === undefined) return;
    page = await next;
  }
}

async function allPages<T>(api: ApiClient, path: string): Promise<T[]> {
  const items: T[] = [];
  for await (const page of pagesOf<T>(api, path)) items.push(...page);
  return items;
}

export const filesApi = {
  /** GET /users/files, page by page: all my files and their count. */
  list: async (api: ApiClient): Promise<FileListResponse> => {
    const files = await allPages<FileListResponse['files'][number]>(api, '/users/files');
    return { files, count: files.length };
  },
  /** GET /users/files, a page at a time (the next one asked for while this one is used). */
  listPages: (api: ApiClient): AsyncGenerator<FileListResponse['files']> =>
    pagesOf<FileListResponse['files'][number]>(api, '/users/files'),
  /** GET /users/files/{id}: metadata with the owner's encryption info. */
  get: (api: ApiClient, fileId: string): Promise<FileMetadata> =>
    api.request<FileMetadata>('GET', `/users/files/${seg(fileId)}`),
  delete: (api: ApiClient, fileId: string): Promise<OkResponse> =>
    api.request<OkResponse>('DELETE', `/users/files/${seg(fileId)}`),
  /** GET /users/files/{id}/shares: who may view the file. */
  shares: async (api: ApiClient, fileId: string): Promise<FileShare[]> =>
    (await api.request<FileSharesResponse>('GET', `/users/files/${seg(fileId)}/shares`)).shares,
  /** POST /users/files/{id}/share with the file key wrapped to the recipient's public key. */
  share: (api: ApiClient, fileId: string, body: ShareFileRequest): Promise<OkResponse> =>
    api.request<OkResponse>('POST', `/users/files/${seg(fileId)}/share`, { body }),
  /** POST /users/shares: several files with one person in one action (not in the spec; one mail). */
  shareMany: (api: ApiClient, body: ShareFilesRequest): Promise<OkResponse> =>
    api.request<OkResponse>('POST', '/users/shares', { body }),
  /** DELETE /users/files/{id}/share/{email}. */
  revoke: (api: ApiClient, fileId: string, email: string): Promise<OkResponse> =>
    api.request<OkResponse>('DELETE', `/users/files/${seg(fileId)}/share/${seg(email)}`),
  /** GET /users/files/shared, page by page: the files others shared with me. */
  listShared: (api: ApiClient): Promise<SharedFileItem[]> =>
    allPages<SharedFileItem>(api, '/users/files/shared'),
  /** GET /users/files/shared/{id}: a shared file's metadata with my copy of its key. */
  getShared: (api: ApiClient, fileId: string): Promise<SharedFileMetadata> =>
    api.request<SharedFileMetadata>('GET', `/users/files/shared/${seg(fileId)}`),
  /** GET /users/uploads?limit=20: my recent uploads. */
  listUploads: (api: ApiClient, limit: number = RECENT_UPLOADS_LIMIT): Promise<UploadsResponse> =>
    api.request<UploadsResponse>('GET', `/users/uploads?limit=${limit}`),
  /** DELETE /users/uploads/multipart/{id}: abort an unfinished upload; its parts are discarded. */
  cancelUpload: (api: ApiClient, uploadId: string): Promise<OkResponse> =>
    api.request<OkResponse>('DELETE', `/users/uploads/multipart/${seg(uploadId)}`),
};
