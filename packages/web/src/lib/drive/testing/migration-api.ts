import type { FileListItem, FileMetadata, FileNodesItem } from '@coffer/contracts';
import type { ApiClient } from '../../api/http';

/** Tests only: a file as GET /users/files lists it, from its metadata answer. */
export const listedFile = (file: FileMetadata): FileListItem => ({
  fileId: file.fileId,
  name: file.name,
  contentType: file.contentType,
  isEncrypted: true,
  size: file.size,
  uploadedAt: file.uploadedAt,
  ownerId: 'owner',
  ...(file.nodeId === undefined ? {} : { nodeId: file.nodeId }),
  ...(file.encryptedMetadata === undefined ? {} : { encryptedMetadata: file.encryptedMetadata }),
});

/**
 * Tests only: the two calls the migration (and the placing of request arrivals) makes: each file's
 * metadata, and the batches of nodes, collected in `sent`.
 */
export function fakeMigrationApi(files: readonly FileMetadata[]): { api: ApiClient; sent: FileNodesItem[] } {
  const sent: FileNodesItem[] = [];
  const api = {
    request: (method: string, path: string, options?: { body?: unknown }) => {
      if (method === 'GET') {
        const file = files.find((candidate) => path === `/users/files/${candidate.fileId}`);
        return file === undefined ? Promise.reject(new Error(`no ${path}`)) : Promise.resolve(file);
      }
      if (method === 'POST' && path === '/users/files/nodes') {
        sent.push(...(options?.body as { files: FileNodesItem[] }).files);
        return Promise.resolve({ ok: true });
      }
      return Promise.reject(new Error(`unexpected ${method} ${path}`));
    },
  } as unknown as ApiClient;
  return { api, sent };
}
