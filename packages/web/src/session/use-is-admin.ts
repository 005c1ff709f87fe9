import { useQuery } from '@tanstack/react-query';
import { usersApi } from '../lib/api/endpoints';
import { useApiClient } from '../lib/api/context';
import { meQueryKey } from '../lib/auth/email-verification';
import { retryUnlessClientError } from '../lib/contacts/contact-errors';

/**
 * Whether the server counts the signed-in person as an admin (GET /users/me, a verified ADMIN_EMAILS
 * address). Only decides what the sidebar offers: the server checks every admin call itself. False
 * while unknown, so the entry never flashes for a non-admin.
 */
export function useIsAdmin(): boolean {
  const api = useApiClient();
  const query = useQuery({
    queryKey: meQueryKey,
    queryFn: () => usersApi.me(api),
    retry: retryUnlessClientError,
  });
  return query.data?.isAdmin === true;
}
