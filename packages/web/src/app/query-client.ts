import { QueryClient } from '@tanstack/react-query';

/** Server state cache. One retry: errors surface quickly as snackbars instead of spinning. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: 0 },
    },
  });
}
