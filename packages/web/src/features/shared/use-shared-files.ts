import { useCallback, useEffect, useMemo } from 'react';
import { sharedWithMeMessages } from '@coffer/contracts';
import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import type { DownloadableFile } from '../files/use-file-download';
import { useApiClient } from '../../lib/api/context';
import { filesApi } from '../../lib/api/files';
import { retryUnlessClientError } from '../../lib/contacts/contact-errors';
import { toSharedFileView, type SharedFileView } from '../../lib/files/file-views';
import { fileQueryKeys } from '../../lib/files/query-keys';
import { snackbar } from '../../lib/snackbar';
import { NO_LONGER_SHARED_TEXT } from './no-longer-shared';
import { sharedFileCheckKey } from './use-shared-file-check';

export interface SharedFilesQuery {
  readonly files: readonly SharedFileView[];
  readonly query: UseQueryResult<readonly SharedFileView[]>;
}

/** GET /users/files/shared as views; a failure shows 'Error loading shared files!'. */
export function useSharedFiles(): SharedFilesQuery {
  const api = useApiClient();
  const query = useQuery({
    queryKey: fileQueryKeys.shared,
    queryFn: async () => (await filesApi.listShared(api)).map(toSharedFileView),
    retry: retryUnlessClientError,
    // A file the owner revoked or deleted must not linger here (issue 15, point 4).
    refetchOnWindowFocus: 'always',
  });
  useEffect(() => {
    if (query.isError) snackbar.danger(sharedWithMeMessages.loadFailed);
  }, [query.isError, query.errorUpdatedAt]);
  const files = useMemo(() => query.data ?? [], [query.data]);
  return { files, query };
}

/**
 * After a shared download failed: fetches the list again (and the file's check) and, when the file
 * has left it, says that it is no longer shared rather than a bare "Download failed".
 */
export function useExplainSharedFailure(
  query: UseQueryResult<readonly SharedFileView[]>,
): (file: DownloadableFile) => Promise<string | null> {
  const queryClient = useQueryClient();
  const { refetch } = query;
  return useCallback(
    async (file) => {
      const fresh = await refetch();
      const sender = fresh.data?.find((item) => item.id === file.id)?.owner;
      if (sender !== undefined) {
        await queryClient.invalidateQueries({ queryKey: sharedFileCheckKey(file.id, sender) });
        return null;
      }
      return fresh.isSuccess ? NO_LONGER_SHARED_TEXT : null;
    },
    [queryClient, refetch],
  );
}
