import { DIRECT_UPLOAD_THRESHOLD, uploadMessages, type UploadItem } from '@coffer/contracts';
import { useMemo } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApiClient } from '../../lib/api/context';
import { filesApi } from '../../lib/api/files';
import { statsQueryKey } from '../../lib/contacts/query-keys';
import { fileQueryKeys } from '../../lib/files/query-keys';
import { snackbar } from '../../lib/snackbar';
import { browserUploadRecords } from '../../lib/transfers/upload-records.idb';
import { useOpenedUploadNames, useRecentUploadsQuery, withOpenedNames } from './use-recent-uploads';

/**
 * Large uploads this account left unfinished (a closed tab, a crash, a lost connection): they hold
 * storage and, while recent, a place among the plan's concurrent uploads. Multipart uploads only (files
 * above the direct-upload threshold): a direct upload is a single request the server ends by itself.
 */
export function unfinishedUploads(uploads: readonly UploadItem[]): UploadItem[] {
  return uploads.filter((u) => u.status === 'pending' && u.size > DIRECT_UPLOAD_THRESHOLD);
}

export interface UnfinishedUploads {
  readonly uploads: readonly UploadItem[];
  /** The server's recent uploads, once loaded. */
  readonly listed: readonly UploadItem[] | undefined;
  readonly cancel: (uploadId: string) => void;
  readonly cancelling: string | null;
}

/** The unfinished ones among the recent uploads, and Cancel: the server-side abort, which frees the parts at once. */
export function useUnfinishedUploads(enabled: boolean): UnfinishedUploads {
  const api = useApiClient();
  const client = useQueryClient();
  const query = useRecentUploadsQuery(enabled);
  const mutation = useMutation({
    mutationFn: async (uploadId: string) => {
      const answer = await filesApi.cancelUpload(api, uploadId);
      // This browser's record of it (what Resume needed) goes too.
      await browserUploadRecords()
        ?.delete(uploadId)
        .catch(() => undefined);
      return answer;
    },
    onSuccess: () => {
      snackbar.success(uploadMessages.cancelled);
    },
    onError: () => {
      snackbar.danger(uploadMessages.cancelFailed);
    },
    onSettled: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: fileQueryKeys.uploads }),
        client.invalidateQueries({ queryKey: statsQueryKey }),
      ]);
    },
  });
  const unfinished = useMemo(() => unfinishedUploads(query.data ?? []), [query.data]);
  const names = useOpenedUploadNames(unfinished);
  return {
    uploads: useMemo(() => withOpenedNames(unfinished, names), [unfinished, names]),
    listed: query.data,
    cancel: (uploadId) => {
      mutation.mutate(uploadId);
    },
    cancelling: mutation.isPending ? mutation.variables : null,
  };
}

/** "started 5 minutes ago": how long an unfinished upload has been waiting. */
export function ageText(createdAt: string, now: number = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - new Date(createdAt).getTime()) / 60_000));
  if (minutes < 1) return 'started less than a minute ago';
  if (minutes < 60) return `started ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `started ${hours} ${hours === 1 ? 'hour' : 'hours'} ago`;
  return `started ${Math.floor(hours / 24)} days ago`;
}
