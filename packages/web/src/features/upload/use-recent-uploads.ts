import { useEffect } from 'react';
import { uploadMessages, type UploadItem } from '@coffer/contracts';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../lib/api/context';
import { filesApi } from '../../lib/api/files';
import { retryUnlessClientError } from '../../lib/contacts/contact-errors';
import { fileQueryKeys } from '../../lib/files/query-keys';
import { snackbar } from '../../lib/snackbar';
import { uploadNameOf } from '../../lib/drive';
import { browserUploadRecords } from '../../lib/transfers/upload-records.idb';

/**
 * GET /users/uploads?limit=20: my recent uploads, newest first. One query serves the recent-uploads list
 * and the unfinished-uploads card, so the screen asks the server once and both refresh together.
 */
export function useRecentUploadsQuery(enabled: boolean): UseQueryResult<readonly UploadItem[]> {
  const api = useApiClient();
  return useQuery({
    queryKey: fileQueryKeys.uploads,
    // Uploads with sealed names are listed as 'encrypted': this tab shows the names it uploaded, and
    // an unfinished upload the name this browser's record of it keeps (what Resume reads too).
    queryFn: async () => {
      const [listed, recordNames] = await Promise.all([filesApi.listUploads(api), browserRecordNames()]);
      return listed.uploads.map((upload) => {
        const name = uploadNameOf(upload.encryptionInfo.encryptedFileKey) ?? recordNames.get(upload.uploadId);
        return name === undefined ? upload : { ...upload, fileName: name };
      });
    },
    enabled,
    retry: retryUnlessClientError,
  });
}

/** The recent uploads, with the spec's 'Error loading uploads!' snackbar once per failed load. */
export function useRecentUploads(enabled: boolean): UseQueryResult<readonly UploadItem[]> {
  const query = useRecentUploadsQuery(enabled);
  const failedAt = query.isError ? query.errorUpdatedAt : 0;
  useEffect(() => {
    if (failedAt !== 0) snackbar.danger(uploadMessages.loadFailed);
  }, [failedAt]);
  return query;
}

/** What the recent-uploads list says of a server-side upload status. */
export const uploadStatusLabels: Readonly<Record<UploadItem['status'], { label: string; color: string }>> = {
  pending: { label: 'Unfinished', color: 'yellow' },
  complete: { label: 'Uploaded', color: 'green' },
  failed: { label: 'Failed', color: 'red' },
  aborted: { label: 'Cancelled', color: 'gray' },
};

/** Upload id → file name, from this browser's records of its unfinished uploads (none where it keeps none). */
async function browserRecordNames(): Promise<ReadonlyMap<string, string>> {
  const records = await browserUploadRecords()
    ?.all()
    .catch(() => []);
  return new Map((records ?? []).map((record) => [record.uploadId, record.fileName]));
}
