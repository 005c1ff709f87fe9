import { DIRECT_UPLOAD_THRESHOLD, uploadMessages, type UploadItem } from '@coffer/contracts';
import { useMemo } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApiClient } from '../../lib/api/context';
import { filesApi } from '../../lib/api/files';
import { openUploadName } from '../../lib/drive';
import { useEncryptionState } from '../../session/session-context';
import { statsQueryKey } from '../../lib/contacts/query-keys';
import { fileQueryKeys } from '../../lib/files/query-keys';
import { snackbar } from '../../lib/snackbar';
import { browserUploadRecords } from '../../lib/transfers/upload-records.idb';
import { useRecentUploadsQuery } from './use-recent-uploads';

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
    uploads: useMemo(
      () =>
        unfinished.map((upload) => {
          const name = names.get(upload.uploadId);
          return name === undefined ? upload : { ...upload, fileName: name };
        }),
      [unfinished, names],
    ),
    listed: query.data,
    cancel: (uploadId) => {
      mutation.mutate(uploadId);
    },
    cancelling: mutation.isPending ? mutation.variables : null,
  };
}

/**
 * The names of unfinished uploads sent with sealed metadata (issue 31), opened in this browser: the
 * server lists them as 'encrypted', and another tab or device that started one keeps no record here.
 * Each costs one RSA unwrap (the owner copy of its file key), once per upload.
 */
function useOpenedUploadNames(uploads: readonly UploadItem[]): ReadonlyMap<string, string> {
  const encryption = useEncryptionState();
  const keys = encryption.status === 'unlocked' ? encryption.keys : null;
  const sealed = uploads.filter((upload) => upload.encryptedMetadata !== undefined);
  const query = useQuery({
    queryKey: ['unfinished-upload-names', keys?.keyVersion ?? null, sealed.map((upload) => upload.uploadId)],
    queryFn: async () => {
      const names = new Map<string, string>();
      if (keys === null) return names;
      for (const upload of sealed) {
        const name = await openUploadName(upload, keys);
        if (name !== undefined) names.set(upload.uploadId, name);
      }
      return names;
    },
    enabled: keys !== null && sealed.length > 0,
    staleTime: Infinity,
    retry: false,
  });
  return query.data ?? NO_NAMES;
}

const NO_NAMES: ReadonlyMap<string, string> = new Map();

/** "started 5 minutes ago": how long an unfinished upload has been waiting. */
export function ageText(createdAt: string, now: number = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - new Date(createdAt).getTime()) / 60_000));
  if (minutes < 1) return 'started less than a minute ago';
  if (minutes < 60) return `started ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `started ${hours} ${hours === 1 ? 'hour' : 'hours'} ago`;
  return `started ${Math.floor(hours / 24)} days ago`;
}
