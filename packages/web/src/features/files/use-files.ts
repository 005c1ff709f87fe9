import { useEffect, useMemo, useRef } from 'react';
import { accessRevokedText, myFilesMessages, revokeFailedText, type FileShare } from '@coffer/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../lib/api/context';
import { filesApi } from '../../lib/api/files';
import { retryUnlessClientError } from '../../lib/contacts/contact-errors';
import { statsQueryKey } from '../../lib/contacts/query-keys';
import type { FileView } from '../../lib/files/file-views';
import { fileQueryKeys } from '../../lib/files/query-keys';
import { snackbar } from '../../lib/snackbar';
import { track } from '../../lib/analytics';
import { useCurrentUser } from '../../session/current-user';
import { useEncryptionState } from '../../session/session-context';
import { myFileViewsQueryFn, useCheckedRecords, useClearNameMigration } from './use-my-drive';

export interface FilesQuery {
  readonly files: readonly FileView[];
  readonly query: UseQueryResult<readonly FileView[]>;
}

/**
 * My files through lib/drive (issue 31): GET /users/files and /users/folders, names decrypted with
 * the drive key (old files keep their clear name until the background migration seals it), node
 * records checked after the first screen. The list grows a page at a time while `isFetching`. A failure shows 'Error loading files!'.
 */
export function useMyFiles(): FilesQuery {
  const api = useApiClient();
  const encryption = useEncryptionState();
  const keys = encryption.status === 'unlocked' ? encryption.keys : null;
  const email = useCurrentUser()?.email ?? null;
  const query = useQuery({
    queryKey: fileQueryKeys.list,
    // A page at a time: the first screen shows before the last page is open (use-my-drive.ts).
    queryFn: myFileViewsQueryFn(api, keys),
    retry: retryUnlessClientError,
  });
  useEffect(() => {
    if (query.isError) snackbar.danger(myFilesMessages.loadFailed);
  }, [query.isError, query.errorUpdatedAt]);
  // Opened without the drive key (a restore still running): open again once it is there.
  const queryClient = useQueryClient();
  const driveKey = keys?.driveKey;
  const openedWith = useRef(driveKey);
  useEffect(() => {
    if (openedWith.current === driveKey) return;
    openedWith.current = driveKey;
    void queryClient.invalidateQueries({ queryKey: fileQueryKeys.list });
  }, [driveKey, queryClient]);
  const listed = useMemo(() => query.data ?? [], [query.data]);
  useClearNameMigration(api, listed, keys, email, query.isSuccess && !query.isFetching);
  const files = useCheckedRecords(listed, email, keys?.signingPublicKeyB64);
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
