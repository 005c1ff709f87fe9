/**
 * TanStack Query keys of the file screens. One root for everything about my files, so an upload,
 * a delete or a share refreshes every list that could show it.
 */
export const fileQueryKeys = {
  all: ['files'] as const,
  /** GET /users/files. */
  list: ['files', 'list'] as const,
  /** GET /users/files/{id}/shares. */
  shares: (fileId: string) => ['files', 'shares', fileId] as const,
  /** GET /users/files/shared. */
  shared: ['shared-files'] as const,
  /** GET /users/uploads: unfinished uploads on the upload screen. */
  uploads: ['files', 'uploads'] as const,
};
