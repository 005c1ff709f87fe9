import { useEffect, useMemo } from 'react';
import { ENCRYPTED_FILE_NAME, uploadMessages, type UploadItem } from '@coffer/contracts';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../lib/api/context';
import { filesApi } from '../../lib/api/files';
import { retryUnlessClientError } from '../../lib/contacts/contact-errors';
import { fileQueryKeys } from '../../lib/files/query-keys';
import { snackbar } from '../../lib/snackbar';
import { openUploadName, uploadNameOf } from '../../lib/drive';
import { browserUploadRecords } from '../../lib/transfers/upload-records.idb';
import { useEncryptionState } from '../../session/session-context';

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

/**
 * The recent uploads, with the spec's 'Error loading uploads!' snackbar once per failed load. Sealed
 * names this tab and browser do not know (another tab's or device's uploads) are opened here.
 */
export function useRecentUploads(enabled: boolean): {
  readonly uploads: readonly UploadItem[];
  readonly isPending: boolean;
  readonly isError: boolean;
} {
  const query = useRecentUploadsQuery(enabled);
  const failedAt = query.isError ? query.errorUpdatedAt : 0;
  useEffect(() => {
    if (failedAt !== 0) snackbar.danger(uploadMessages.loadFailed);
  }, [failedAt]);
  const listed = query.data ?? NO_UPLOADS;
  const names = useOpenedUploadNames(listed);
  const uploads = useMemo(() => withOpenedNames(listed, names), [listed, names]);
  return { uploads, isPending: query.isPending, isError: query.isError };
}

/**
 * The names of my uploads sent with sealed metadata (issue 31) that the list still shows as
 * 'encrypted' (another tab or device uploaded them, and this browser keeps no record): opened here,
 * one RSA unwrap of the owner copy of each file key, once per upload (at most the list's 20).
 */
export function useOpenedUploadNames(uploads: readonly UploadItem[]): ReadonlyMap<string, string> {
  const encryption = useEncryptionState();
  const keys = encryption.status === 'unlocked' ? encryption.keys : null;
  const sealed = uploads.filter(
    (upload) => upload.encryptedMetadata !== undefined && upload.fileName === ENCRYPTED_FILE_NAME,
  );
  const query = useQuery({
    queryKey: ['upload-names', keys?.keyVersion ?? null, sealed.map((upload) => upload.uploadId)],
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

/** The uploads with the names opened for them. */
export function withOpenedNames(
  uploads: readonly UploadItem[],
  names: ReadonlyMap<string, string>,
): UploadItem[] {
  return uploads.map((upload) => {
    const name = names.get(upload.uploadId);
    return name === undefined ? upload : { ...upload, fileName: name };
  });
}

const NO_NAMES: ReadonlyMap<string, string> = new Map();
const NO_UPLOADS: readonly UploadItem[] = [];

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
