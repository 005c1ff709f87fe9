import { QueryClient, type QueryCache } from '@tanstack/react-query';

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
  dropUnseenLoadsOnRefresh(client.getQueryCache());
  return client;
}

/**
 * A load that no screen watches any more, still running when something marks its data for a new
 * load (an upload ended, a share arrived), is dropped, and the mark kept: otherwise it answers with
 * what the server held before that change, TanStack Query clears the mark on every answer, and the
 * screen opened again shows the old data as fresh for the list's 30 s (session 24: a new file missing
 * from My Files). A screen still watching gets its load restarted by the refresh itself; a query
 * function that reads its abort signal is cancelled as soon as its screen closes (My Files' lists do);
 * this covers every query that does not.
 */
function dropUnseenLoadsOnRefresh(cache: QueryCache): void {
  cache.subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'invalidate') return;
    const { query } = event;
    if (query.state.fetchStatus !== 'fetching' || query.getObserversCount() > 0) return;
    void query.cancel({ revert: true }).then(() => {
      query.invalidate();
    });
  });
}
