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
  type SharedFileItem,
  type SharedFileMetadata,
  type SharedFilesResponse,
  type UploadsResponse,
} from '@coffer/contracts';
import { seg, type ApiClient } from './http';

export const filesApi = {
  /** GET /users/files: my files and their count. */
  list: (api: ApiClient): Promise<FileListResponse> => api.request<FileListResponse>('GET', '/users/files'),
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
  /** DELETE /users/files/{id}/share/{email}. */
  revoke: (api: ApiClient, fileId: string, email: string): Promise<OkResponse> =>
    api.request<OkResponse>('DELETE', `/users/files/${seg(fileId)}/share/${seg(email)}`),
  /** GET /users/files/shared: the files others shared with me. */
  listShared: async (api: ApiClient): Promise<SharedFileItem[]> =>
    (await api.request<SharedFilesResponse>('GET', '/users/files/shared')).files,
  /** GET /users/files/shared/{id}: a shared file's metadata with my copy of its key. */
  getShared: (api: ApiClient, fileId: string): Promise<SharedFileMetadata> =>
    api.request<SharedFileMetadata>('GET', `/users/files/shared/${seg(fileId)}`),
  /** GET /users/uploads?limit=20: my recent uploads. */
  listUploads: (api: ApiClient, limit: number = RECENT_UPLOADS_LIMIT): Promise<UploadsResponse> =>
    api.request<UploadsResponse>('GET', `/users/uploads?limit=${limit}`),
};
