import {
  QueryClient,
  type InvalidateOptions,
  type InvalidateQueryFilters,
  type Query,
  type QueryClientConfig,
  type QueryKey,
} from '@tanstack/react-query';

export interface QueryClientOptions {
  /** Retries of a failed query (default 1); tests pass `false`. */
  readonly retry?: number | false;
}

/** Server state cache. One retry: errors surface quickly as snackbars instead of spinning. */
export function createQueryClient(options: QueryClientOptions = {}): QueryClient {
  return new RefreshingQueryClient({
    defaultOptions: {
      queries: { retry: options.retry ?? 1, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: 0 },
    },
  });
}

/**
 * A query cache where a refresh (`invalidateQueries`: an upload ended, a share arrived) is never lost
 * to a load that was already running and that the refresh does not restart: one no screen watches
 * (its screen closed, or a disabled one), or a first load that a watching screen joins. Such a load
 * answers with what the server held before the change, and TanStack Query clears the refresh mark on
 * every answer, so the data counted as fresh for the list's 30 s (session 24: a new file missing from
 * My Files). Here the mark is set again once that load ends, and a screen watching by then loads anew.
 * The load itself is left to finish: a caller may await it (`queryClient.query` in the shared ZIP and
 * the session watchers). A query function that reads its abort signal is cancelled as soon as its
 * screen closes anyway (My Files' lists do).
 */
class RefreshingQueryClient extends QueryClient {
  /** Per query hash, the running load (its promise) that a refresh came during and did not restart. */
  readonly #refreshedWhileLoading = new Map<string, Promise<unknown> | undefined>();

  constructor(config: QueryClientConfig) {
    super(config);
    this.getQueryCache().subscribe((event) => {
      // The cache's events carry `Query<any>`.
      const { queryHash, queryKey, state, promise } = event.query as Query;
      if (event.type === 'removed') this.#refreshedWhileLoading.delete(queryHash);
      if (event.type !== 'updated' || state.fetchStatus !== 'idle') return;
      if (!this.#refreshedWhileLoading.has(queryHash)) return;
      const load = this.#refreshedWhileLoading.get(queryHash);
      this.#refreshedWhileLoading.delete(queryHash);
      // A load that replaced that one read after the refresh; a failed one is marked already.
      if (promise !== load || event.action.type === 'error') return;
      void this.invalidateQueries({ queryKey, exact: true });
    });
  }

  override invalidateQueries<TTaggedQueryKey extends QueryKey = QueryKey>(
    filters?: InvalidateQueryFilters<TTaggedQueryKey>,
    options?: InvalidateOptions,
  ): Promise<void> {
    const restarts = filters?.refetchType !== 'none' && options?.cancelRefetch !== false;
    for (const query of this.getQueryCache().findAll(filters)) {
      if (query.state.fetchStatus === 'idle') continue;
      // The refresh restarts only an active query's load that has data already (a first load is joined).
      if (!restarts || !query.isActive() || query.state.data === undefined) {
        this.#refreshedWhileLoading.set(query.queryHash, query.promise);
      }
    }
    return super.invalidateQueries(filters, options);
  }
}
