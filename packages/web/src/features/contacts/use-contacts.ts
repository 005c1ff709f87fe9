import type { Contact } from '@coffer/contracts';
import { contactsMessages } from '@coffer/contracts';
import { publicKeyFingerprint } from '@coffer/crypto';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../lib/api/context';
import { contactsApi, keysApi } from '../../lib/api/endpoints';
import { addContactErrorMessage, retryUnlessClientError } from '../../lib/contacts/contact-errors';
import { keyLookupOf, toContactView, type ContactView } from '../../lib/contacts/contact-status';
import { contactQueryKeys, statsQueryKey } from '../../lib/contacts/query-keys';
import { snackbar } from '../../lib/snackbar';
import { track } from '../../lib/analytics';

/** GET /users/contacts. */
export function useContactsList(): UseQueryResult<Contact[]> {
  const api = useApiClient();
  return useQuery({
    queryKey: contactQueryKeys.list,
    queryFn: () => contactsApi.list(api),
    retry: retryUnlessClientError,
  });
}

/** Public keys change rarely; a lookup is reused for five minutes. */
const PUBLIC_KEY_STALE_MS = 5 * 60_000;

/**
 * Every contact with the outcome of its public-key lookup (`GET /users/keys/public/{email}`, one query
 * per contact, cached per email): verified, unverified, or still checking. `invitedNow` holds the
 * emails invited on this screen.
 */
export function useContactViews(
  contacts: readonly Contact[],
  invitedNow: ReadonlySet<string> = new Set(),
): ContactView[] {
  const api = useApiClient();
  return useQueries({
    queries: contacts.map((contact) => ({
      queryKey: contactQueryKeys.publicKey(contact.email),
      queryFn: () => keysApi.publicKeyOf(api, contact.email),
      retry: retryUnlessClientError,
      staleTime: PUBLIC_KEY_STALE_MS,
    })),
    // `useQueries` returns one result per query, in the contacts' order.
    combine: (results) =>
      contacts.map((contact, index) =>
        toContactView(contact, keyLookupOf(results[index]), invitedNow.has(contact.email)),
      ),
  });
}

/** The safety number of a verified contact's key (SHA-256 of the SPKI, grouped hex). */
export function useKeyFingerprint(publicKeyB64: string | null): UseQueryResult<string> {
  return useQuery({
    queryKey: contactQueryKeys.fingerprint(publicKeyB64 ?? ''),
    queryFn: () => publicKeyFingerprint(publicKeyB64 ?? ''),
    enabled: publicKeyB64 !== null,
    staleTime: Infinity,
    retry: false,
  });
}

/** The cached contact list: changed at once after a mutation, refetched when it settles. */
interface ContactsCache {
  update(change: (list: Contact[]) => Contact[]): void;
  invalidate(options?: { stats?: boolean }): Promise<void>;
}

function useContactsCache(): ContactsCache {
  const queryClient = useQueryClient();
  return {
    update: (change) => {
      queryClient.setQueryData<Contact[]>(contactQueryKeys.list, (list) => list && change(list));
    },
    invalidate: async ({ stats = false } = {}) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: contactQueryKeys.list }),
        stats ? queryClient.invalidateQueries({ queryKey: statsQueryKey }) : Promise.resolve(),
      ]);
    },
  };
}

export interface ContactInput {
  name: string;
  email: string;
}

/** POST /users/contacts, with the spec's snackbars (duplicate and limit answers have their own). */
export function useAddContact(): UseMutationResult<Contact, Error, ContactInput> {
  const api = useApiClient();
  const contacts = useContactsCache();
  return useMutation({
    mutationFn: ({ name, email }: ContactInput) =>
      contactsApi.add(api, { name: name.trim(), email: email.trim() }),
    onSuccess: () => {
      snackbar.success(contactsMessages.addSuccess);
      // A new contact is verified later, by the public-key lookup.
      track('contact_added', { verified: false });
    },
    onError: (error) => {
      snackbar.danger(addContactErrorMessage(error));
    },
    // Refetch either way: a duplicate or limit answer means our list or count was stale.
    onSettled: () => contacts.invalidate({ stats: true }),
  });
}

/** PATCH /users/contacts/{email} with the new name; the email cannot change. */
export function useRenameContact(): UseMutationResult<Contact, Error, ContactInput> {
  const api = useApiClient();
  const contacts = useContactsCache();
  return useMutation({
    mutationFn: ({ name, email }: ContactInput) => contactsApi.rename(api, email, name.trim()),
    onSuccess: (updated) => {
      contacts.update((list) => list.map((contact) => (contact.email === updated.email ? updated : contact)));
      snackbar.success(contactsMessages.updateSuccess);
    },
    onError: () => {
      snackbar.danger(contactsMessages.updateFailed);
    },
    onSettled: () => contacts.invalidate(),
  });
}

/** DELETE /users/contacts/{email}. */
export function useDeleteContact(): UseMutationResult<unknown, Error, Contact> {
  const api = useApiClient();
  const contacts = useContactsCache();
  return useMutation({
    mutationFn: (contact: Contact) => contactsApi.delete(api, contact.email),
    onSuccess: (_answer, removed) => {
      contacts.update((list) => list.filter((contact) => contact.email !== removed.email));
      snackbar.success(contactsMessages.deleteSuccess);
    },
    onError: () => {
      snackbar.danger(contactsMessages.deleteFailed);
    },
    onSettled: () => contacts.invalidate({ stats: true }),
  });
}

/** POST /users/invitations; the contact then shows a disabled 'Invited'. */
export function useInviteContact(): UseMutationResult<unknown, Error, Contact> {
  const api = useApiClient();
  const contacts = useContactsCache();
  return useMutation({
    mutationFn: (contact: Contact) => contactsApi.invite(api, contact.email),
    onSuccess: (_answer, invitedContact) => {
      // The server records the invitation (`invited: true`); show it before the refetch answers.
      contacts.update((list) =>
        list.map((contact) =>
          contact.email === invitedContact.email ? { ...contact, invited: true } : contact,
        ),
      );
      snackbar.success(contactsMessages.inviteSuccess);
      track('invite_sent');
    },
    onError: () => {
      snackbar.danger(contactsMessages.inviteFailed);
    },
    onSettled: () => contacts.invalidate(),
  });
}
