import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import { fileTypeOf } from '@coffer/contracts';
import { sharedNames } from '../../lib/drive';
import { sharedWithMeMessages } from '@coffer/contracts';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { DownloadableFile } from '../files/use-file-download';
import { useApiClient } from '../../lib/api/context';
import { filesApi } from '../../lib/api/files';
import { retryUnlessClientError } from '../../lib/contacts/contact-errors';
import { toSharedFileView, type SharedFileView } from '../../lib/files/file-views';
import { fileQueryKeys } from '../../lib/files/query-keys';
import { snackbar } from '../../lib/snackbar';
import { NO_LONGER_SHARED_TEXT } from './no-longer-shared';

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
  // Sealed names (issue 31) replace 'encrypted' as each card's check opens them.
  const namesVersion = useSyncExternalStore(sharedNames.subscribe, sharedNames.getSnapshot);
  const files = useMemo(
    () => (query.data ?? []).map(withSharedName),
    // namesVersion: a name was opened since.
    [query.data, namesVersion],
  );
  return { files, query };
}

function withSharedName(file: SharedFileView): SharedFileView {
  const opened = sharedNames.get(file.id);
  if (opened === undefined) return file;
  return {
    ...file,
    title: opened.name,
    name: opened.name,
    fileType: fileTypeOf(opened.name),
    contentType: opened.contentType,
  };
}

/**
 * After a shared download failed: fetches the list again and, when the file has left it, says that
 * it is no longer shared rather than a bare "Download failed". The file's signature check is left
 * alone: its answer is the one downloads must use (issue 13), refreshed on its own schedule.
 */
export function useExplainSharedFailure(
  query: UseQueryResult<readonly SharedFileView[]>,
): (file: DownloadableFile) => Promise<string | null> {
  const { refetch } = query;
  return useCallback(
    async (file) => {
      const fresh = await refetch();
      const listed = fresh.data?.some((item) => item.id === file.id) ?? true;
      return fresh.isSuccess && !listed ? NO_LONGER_SHARED_TEXT : null;
    },
    [refetch],
  );
}
