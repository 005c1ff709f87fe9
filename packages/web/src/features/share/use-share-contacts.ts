import { useEffect } from 'react';
import { contactsMessages } from '@coffer/contracts';
import { useQueries, useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { Contact } from '@coffer/contracts';
import { useApiClient } from '../../lib/api/context';
import { contactsApi, keysApi } from '../../lib/api/endpoints';
import { retryUnlessClientError } from '../../lib/contacts/contact-errors';
import { keyLookupOf, toContactView, type ContactView } from '../../lib/contacts/contact-status';
import { contactQueryKeys } from '../../lib/contacts/query-keys';
import { snackbar } from '../../lib/snackbar';

/** Public keys change rarely; the Contacts screen reuses a lookup for five minutes too. */
const PUBLIC_KEY_STALE_MS = 5 * 60_000;

export interface ShareContacts {
  readonly contacts: readonly ContactView[];
  readonly query: UseQueryResult<Contact[]>;
}

/**
 * The contacts with their public-key lookups, for picking recipients. Reads and fills the same cache
 * entries as the Contacts screen (`contactQueryKeys`), so a lookup made there is reused here.
 */
export function useShareContacts(enabled: boolean): ShareContacts {
  const api = useApiClient();
  const query = useQuery({
    queryKey: contactQueryKeys.list,
    queryFn: () => contactsApi.list(api),
    retry: retryUnlessClientError,
    enabled,
  });
  const list = query.data ?? [];
  const contacts = useQueries({
    queries: list.map((contact) => ({
      queryKey: contactQueryKeys.publicKey(contact.email),
      queryFn: () => keysApi.publicKeyOf(api, contact.email),
      retry: retryUnlessClientError,
      staleTime: PUBLIC_KEY_STALE_MS,
      enabled,
    })),
    combine: (results) => list.map((contact, index) => toContactView(contact, keyLookupOf(results[index]))),
  });
  useEffect(() => {
    if (enabled && query.isError) snackbar.danger(contactsMessages.loadFailed);
  }, [enabled, query.isError, query.errorUpdatedAt]);
  return { contacts, query };
}
