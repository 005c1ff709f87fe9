import { useQuery } from '@tanstack/react-query';
import type { UploadItem } from '@coffer/contracts';
import { useApiClient } from '../../lib/api/context';
import type { UploadRecord } from '../../lib/transfers/upload-records';
import { browserUploadRecords } from '../../lib/transfers/upload-records.idb';
import { forgetFinishedUploads } from '../../lib/transfers/upload-records-sync';

/** Query key of this browser's upload records (refreshed with the server's list of uploads). */
export const uploadRecordsQueryKey = ['upload-records'] as const;

/**
 * This browser's records of unfinished multipart uploads (what Resume needs), once the server's
 * recent uploads are known (undefined until then): records of uploads the server no longer has pending are forgotten.
 */
export function useUploadRecords(
  listed: readonly UploadItem[] | undefined,
  keyVersion: string | null,
): ReadonlyMap<string, UploadRecord> | undefined {
  const api = useApiClient();
  const store = browserUploadRecords();
  const query = useQuery({
    queryKey: [...uploadRecordsQueryKey, keyVersion, listed],
    queryFn: async () => {
      if (store === null || listed === undefined || keyVersion === null)
        return new Map<string, UploadRecord>();
      const kept = await forgetFinishedUploads(store, listed, api, keyVersion);
      return new Map(kept.map((record) => [record.uploadId, record]));
    },
    enabled: listed !== undefined && keyVersion !== null,
    retry: false,
  });
  return query.data;
}
