import type { PinState } from '@coffer/crypto';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import { useAppSession, useEncryptionState } from '../../session/session-context';
import { servedKeyOf, type ContactView } from '../../lib/contacts/contact-status';
import type { KeyTrust, ServedKey } from '../../lib/trust/key-trust';
import type { TrustSession } from '../../lib/trust/trust-session';

/** Query keys of contact key checks; one root so a pin change re-checks every card of that contact. */
export const contactTrustKeys = {
  all: ['contact-trust'] as const,
  of: (email: string) => ['contact-trust', email.toLowerCase()] as const,
  served: (email: string, served: ServedKey | null) =>
    [
      'contact-trust',
      email.toLowerCase(),
      served?.publicKey ?? null,
      served?.signingPublicKey ?? null,
      served?.keyBinding ?? null,
    ] as const,
};

/**
 * Where a contact's served key stands against the user's pins (issue 13): pinned on first sight,
 * verified, or changed. Runs only while encryption is unlocked (the pins need the user's keys).
 */
export function useContactTrust(email: string, served: ServedKey | null): UseQueryResult<KeyTrust> {
  const { trust } = useAppSession();
  const unlocked = useEncryptionState().status === 'unlocked';
  return useQuery(contactTrustQuery(trust, unlocked, email, served));
}

/** The same checks for several contacts (the share picker), sharing the cards' cache entries. */
export function useContactTrusts(
  contacts: readonly ContactView[],
): ReadonlyMap<string, UseQueryResult<KeyTrust>> {
  const { trust } = useAppSession();
  const unlocked = useEncryptionState().status === 'unlocked';
  return useQueries({
    queries: contacts.map((contact) =>
      contactTrustQuery(trust, unlocked, contact.email, servedKeyOf(contact)),
    ),
    combine: (results) =>
      new Map(
        contacts.flatMap((contact, index) => {
          const result = results[index];
          return result === undefined ? [] : [[contact.email, result] as const];
        }),
      ),
  });
}

function contactTrustQuery(trust: TrustSession, unlocked: boolean, email: string, served: ServedKey | null) {
  return {
    queryKey: contactTrustKeys.served(email, served),
    queryFn: () => {
      if (served === null) throw new Error('No key to check');
      return trust.checkContact(email, served);
    },
    enabled: unlocked && served !== null,
    staleTime: Infinity,
    retry: false,
  };
}

export interface PinRequest {
  email: string;
  served: ServedKey;
  state: Extract<PinState, 'verified' | 'key-changed-accepted'>;
}

/** Accepts a changed key or marks a contact verified in person, then re-checks that contact. */
export function usePinContact(): UseMutationResult<void, Error, PinRequest> {
  const { trust } = useAppSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ email, served, state }: PinRequest) => trust.pin(email, served, state),
    onSettled: (_data, _error, request) =>
      queryClient.invalidateQueries({ queryKey: contactTrustKeys.of(request.email) }),
  });
}
