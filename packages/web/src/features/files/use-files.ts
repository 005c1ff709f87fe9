import { useEffect, useMemo } from 'react';
import { accessRevokedText, myFilesMessages, revokeFailedText, type FileShare } from '@coffer/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../lib/api/context';
import { filesApi } from '../../lib/api/files';
import { retryUnlessClientError } from '../../lib/contacts/contact-errors';
import { statsQueryKey } from '../../lib/contacts/query-keys';
import { toFileView, type FileView } from '../../lib/files/file-views';
import { fileQueryKeys } from '../../lib/files/query-keys';
import { snackbar } from '../../lib/snackbar';
import { track } from '../../lib/analytics';

export interface FilesQuery {
  readonly files: readonly FileView[];
  readonly query: UseQueryResult<readonly FileView[]>;
}

/** GET /users/files as views; a failure shows 'Error loading files!'. */
export function useMyFiles(): FilesQuery {
  const api = useApiClient();
  const query = useQuery({
    queryKey: fileQueryKeys.list,
    queryFn: async () => (await filesApi.list(api)).files.map(toFileView),
    retry: retryUnlessClientError,
  });
  useEffect(() => {
    if (query.isError) snackbar.danger(myFilesMessages.loadFailed);
  }, [query.isError, query.errorUpdatedAt]);
  const files = useMemo(() => query.data ?? [], [query.data]);
  return { files, query };
}

/** GET /users/files/{id}/shares: who may view the file. */
export function useFileShares(fileId: string, enabled = true): UseQueryResult<FileShare[]> {
  const api = useApiClient();
  return useQuery({
    queryKey: fileQueryKeys.shares(fileId),
    queryFn: () => filesApi.shares(api, fileId),
    retry: retryUnlessClientError,
    enabled,
  });
}

/** DELETE /users/files/{id}: 'File deleted successfully!' / 'Error deleting file!'. */
export function useDeleteFile(): UseMutationResult<unknown, Error, FileView> {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: FileView) => filesApi.delete(api, file.id),
    onSuccess: (_answer, file) => {
      queryClient.setQueryData<readonly FileView[]>(fileQueryKeys.list, (list) =>
        list?.filter((item) => item.id !== file.id),
      );
      queryClient.removeQueries({ queryKey: fileQueryKeys.shares(file.id) });
      snackbar.success(myFilesMessages.deleteSuccess);
    },
    onError: () => {
      snackbar.danger(myFilesMessages.deleteFailed);
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: fileQueryKeys.list }),
        queryClient.invalidateQueries({ queryKey: statsQueryKey }),
      ]),
  });
}

export interface RevokeInput {
  readonly file: FileView;
  readonly share: FileShare;
}

/** The name a revoke snackbar uses: the contact's name, else their email. */
export function shareDisplayName(share: FileShare): string {
  return share.name.trim() === '' ? share.email : share.name;
}

/**
 * DELETE /users/files/{id}/share/{email}: 'Access revoked for <name>', or 'Failed to revoke access
 * for <name>' (the file's title when the share has no name).
 */
export function useRevokeShare(): UseMutationResult<unknown, Error, RevokeInput> {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, share }: RevokeInput) => filesApi.revoke(api, file.id, share.email),
    onSuccess: (_answer, { file, share }) => {
      queryClient.setQueryData<FileShare[]>(fileQueryKeys.shares(file.id), (list) =>
        list?.filter((item) => item.email !== share.email),
      );
      snackbar.success(accessRevokedText(shareDisplayName(share)));
      track('revoke', { fileCount: 1 });
    },
    onError: (_error, { file, share }) => {
      snackbar.danger(revokeFailedText(share.name.trim() === '' ? file.title : share.name));
    },
    onSettled: (_answer, _error, { file }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: fileQueryKeys.shares(file.id) }),
        queryClient.invalidateQueries({ queryKey: statsQueryKey }),
      ]),
  });
}
