import { useEffect, useMemo } from 'react';
import { sharedWithMeMessages } from '@coffer/contracts';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../lib/api/context';
import { filesApi } from '../../lib/api/files';
import { retryUnlessClientError } from '../../lib/contacts/contact-errors';
import { toSharedFileView, type SharedFileView } from '../../lib/files/file-views';
import { fileQueryKeys } from '../../lib/files/query-keys';
import { snackbar } from '../../lib/snackbar';

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
  });
  useEffect(() => {
    if (query.isError) snackbar.danger(sharedWithMeMessages.loadFailed);
  }, [query.isError, query.errorUpdatedAt]);
  const files = useMemo(() => query.data ?? [], [query.data]);
  return { files, query };
}
