import { useMemo } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useApiClient } from '../../lib/api/context';
import { retryUnlessClientError } from '../../lib/contacts/contact-errors';
import { driveApi, nodeParent, openDrive, type ChangeSigner, type DriveFolder } from '../../lib/drive';
import type { NodeParent } from '../../lib/drive';
import { fileQueryKeys } from '../../lib/files/query-keys';
import { useCurrentUser } from '../../session/current-user';
import { useEncryptionState } from '../../session/session-context';

/**
 * Under the file list's key, so every refresh of my files (upload, delete, move) refreshes the
 * folders too (TanStack invalidates by prefix).
 */
export const folderQueryKey = [...fileQueryKeys.list, 'folders'] as const;

export interface MyFolders {
  readonly folders: readonly DriveFolder[];
  readonly isPending: boolean;
  readonly isError: boolean;
  /** The parent to wrap under (drive key or an opened folder's key); null when it did not open. */
  parentFor(nodeId: string | null): NodeParent | null;
  /** My email and signing key; null while locked or without a signing key. */
  readonly signer: ChangeSigner | null;
  /** Refetch files and folders after a change. */
  refresh(): Promise<void>;
}

/** My folders (GET /users/folders), opened top down with the drive key. */
export function useMyFolders(): MyFolders {
  const api = useApiClient();
  const encryption = useEncryptionState();
  const keys = encryption.status === 'unlocked' ? encryption.keys : null;
  const email = useCurrentUser()?.email ?? null;
  const driveKey = keys?.driveKey;
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: [...folderQueryKey, driveKey === undefined ? 'locked' : 'open'],
    // The signal is read so that a load left running with no screen is cancelled, not kept as fresh
    // after a later refresh (see myFileViewsQueryFn).
    queryFn: async ({ signal }) => {
      const items = await driveApi.folders(api, signal).catch((error: unknown) => {
        if ((error as { status?: unknown } | null)?.status === 404) return [];
        throw error;
      });
      return (await openDrive([], items, driveKey)).folders;
    },
    retry: retryUnlessClientError,
  });
  const folders = useMemo(() => query.data ?? [], [query.data]);
  const signingPrivateKey = keys?.signingPrivateKey;
  return {
    folders,
    isPending: query.isPending,
    isError: query.isError,
    parentFor: (nodeId) => nodeParent(folders, driveKey, nodeId),
    signer:
      email === null || signingPrivateKey === undefined
        ? null
        : {
            ownerEmail: email,
            signingPrivateKey,
            ...(keys?.signingPublicKeyB64 === undefined
              ? {}
              : { signingPublicKeyB64: keys.signingPublicKeyB64 }),
          },
    refresh: () => queryClient.invalidateQueries({ queryKey: fileQueryKeys.list }),
  };
}
