import { useQuery } from '@tanstack/react-query';
import { openLinkLabel } from '@coffer/crypto';
import { useApiClient } from '../../lib/api/context';
import { retryUnlessClientError } from '../../lib/contacts/contact-errors';
import { linksApi } from '../../lib/links/links-api';
import type { LinksResponse, OwnerLink } from '../../lib/links/link-wire';
import { useEncryptionState } from '../../session/session-context';
import { linkQueryKeys } from './link-query-keys';

/** One of my links with its label opened (null: none, or it does not open with my drive key). */
export interface LinkView extends OwnerLink {
  readonly labelText: string | null;
}

export interface LinksView {
  readonly links: readonly LinkView[];
  readonly requests: LinksResponse['requests'];
}

/** My links and requests (or one file's links), labels decrypted with the drive key. */
export function useLinks(fileId?: string) {
  const api = useApiClient();
  const encryption = useEncryptionState();
  const driveKey = encryption.status === 'unlocked' ? encryption.keys.driveKey : undefined;
  return useQuery({
    queryKey: fileId === undefined ? linkQueryKeys.list() : linkQueryKeys.ofFile(fileId),
    retry: retryUnlessClientError,
    queryFn: async (): Promise<LinksView> => {
      const answer = await linksApi.list(api, fileId);
      const links = await Promise.all(
        answer.links.map(async (link) => ({
          ...link,
          labelText:
            link.label === null || driveKey === undefined
              ? null
              : await openLinkLabel(driveKey, link.linkId, link.label).catch(() => null),
        })),
      );
      return { links, requests: answer.requests };
    },
  });
}
