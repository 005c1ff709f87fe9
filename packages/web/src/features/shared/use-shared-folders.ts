import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../lib/api/context';
import { keysApi } from '../../lib/api/endpoints';
import type { ApiClient } from '../../lib/api/http';
import {
  folderSharesApi,
  openSharedFolder,
  openSharedFolderTree,
  type OpenedSharedFolder,
  type SharedFolderTree,
} from '../../lib/drive';
import type { TrustSession } from '../../lib/trust/trust-session';
import { useRecipient } from './use-recipient';

/** Query key of the folders shared with me (a prefix of their trees' keys). */
export const sharedFoldersKey = ['shared-folders'] as const;

/** A received folder, opened, with the owner's pinned signing key it was checked with. */
export type ReceivedFolder = OpenedSharedFolder & { readonly ownerSigningKey?: string };

/** The owner's signing key as my pins hold it; undefined when their key changed or cannot be checked. */
async function ownerSigningKey(
  api: ApiClient,
  trust: TrustSession,
  owner: string,
): Promise<string | undefined> {
  const served = await keysApi.publicKeyOf(api, owner);
  const check = await trust.checkContact(owner, served);
  if (check.state === 'key-changed' || check.state === 'invalid-binding') return undefined;
  return check.signingPublicKeyB64;
}

/**
 * Folders others shared with me (GET /users/folders/shared), each grant verified with the owner's
 * pinned signing key before its key is unwrapped and its name opened (lib/drive openSharedFolder).
 */
export function useSharedFolders(): UseQueryResult<readonly ReceivedFolder[]> {
  const { api, trust, email, keys, ready } = useRecipient();
  return useQuery({
    queryKey: sharedFoldersKey,
    enabled: ready,
    queryFn: async () => {
      if (keys === null || email === null) return [];
      const items = await folderSharesApi.received(api).catch((error: unknown) => {
        if ((error as { status?: unknown } | null)?.status === 404) return [];
        throw error;
      });
      const me = {
        email,
        keyId: keys.keyVersion,
        publicKeyB64: keys.publicKeyB64,
        privateKey: keys.privateKey,
      };
      const signingKeys = new Map<string, Promise<string | undefined>>();
      return Promise.all(
        items.map(async (item) => {
          let signing = signingKeys.get(item.owner);
          if (signing === undefined) {
            signing = ownerSigningKey(api, trust, item.owner).catch(() => undefined);
            signingKeys.set(item.owner, signing);
          }
          const ownerKey = await signing;
          const opened = await openSharedFolder(item, me, ownerKey);
          return ownerKey === undefined ? opened : { ...opened, ownerSigningKey: ownerKey };
        }),
      );
    },
  });
}

/** The tree below a received folder, opened and checked against its owner's records. */
export function useSharedFolderTree(folder: ReceivedFolder | undefined): UseQueryResult<SharedFolderTree> {
  return useQuery(sharedFolderTreeQuery(useApiClient(), folder));
}

/** The tree's query, for `useSharedFolderTree` and for a selection's ZIP (`queryClient.query`). */
export function sharedFolderTreeQuery(api: ApiClient, folder: ReceivedFolder | undefined) {
  return {
    queryKey: [...sharedFoldersKey, 'tree', folder?.item.nodeId ?? ''],
    enabled: folder?.ok === true && folder.ownerSigningKey !== undefined,
    queryFn: (): Promise<SharedFolderTree> => {
      if (folder?.ok !== true || folder.ownerSigningKey === undefined) throw new Error('not opened');
      return openSharedFolderTree(
        api,
        { nodeId: folder.item.nodeId, owner: folder.item.owner, folderKey: folder.folderKey },
        folder.ownerSigningKey,
      );
    },
  };
}
