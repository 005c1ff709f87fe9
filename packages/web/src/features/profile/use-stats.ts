import type { StatsResponse } from '@coffer/contracts';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useApiClient } from '../../lib/api/context';
import { statsApi } from '../../lib/api/endpoints';
import { retryUnlessClientError } from '../../lib/contacts/contact-errors';
import { statsQueryKey } from '../../lib/contacts/query-keys';

/** GET /users/stats: usage against the subscription's limits (Profile, Contacts). */
export function useStats(): UseQueryResult<StatsResponse> {
  const api = useApiClient();
  return useQuery({
    queryKey: statsQueryKey,
    queryFn: () => statsApi.get(api),
    retry: retryUnlessClientError,
  });
}
