import { QueryClient, type Query } from '@tanstack/react-query';

export interface QueryClientOptions {
  /** Retries of a failed query (default 1); tests pass `false`. */
  readonly retry?: number | false;
}

/** Server state cache. One retry: errors surface quickly as snackbars instead of spinning. */
export function createQueryClient(options: QueryClientOptions = {}): QueryClient {
  const client = new QueryClient({
    defaultOptions: {
      queries: { retry: options.retry ?? 1, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: 0 },
    },
  });
  markAgainAfterUnseenLoads(client);
  return client;
}

/**
 * A load that no screen watches, still running when something marks its data for a new load (an
 * upload ended, a share arrived), answers with what the server held before that change, and TanStack
 * Query clears the mark on every answer: the screen opened again showed the old data as fresh for the
 * list's 30 s (session 24: a new file missing from My Files). So the mark is set again once such a
 * load has ended, and any screen watching by then loads anew. The load itself is left to finish (it
 * may be awaited: `queryClient.query` in the shared ZIP and the session watchers); a query function
 * that reads its abort signal is cancelled as soon as its screen closes anyway (My Files' lists do).
 */
function markAgainAfterUnseenLoads(client: QueryClient): void {
  /** The queries, by hash: the cache's events carry `Query<any>`. */
  const refreshedWhileLoading = new Set<string>();
  client.getQueryCache().subscribe((event) => {
    if (event.type === 'removed') refreshedWhileLoading.delete(event.query.queryHash);
    if (event.type !== 'updated') return;
    const { queryHash, queryKey, state } = event.query as Query;
    if (event.action.type === 'invalidate') {
      if (state.fetchStatus === 'fetching' && event.query.getObserversCount() === 0) {
        refreshedWhileLoading.add(queryHash);
      }
      return;
    }
    if (state.fetchStatus !== 'idle' || !refreshedWhileLoading.delete(queryHash)) return;
    void client.invalidateQueries({ queryKey, exact: true });
  });
}
