import { NAV_ABORT_WAITS_MS } from '@coffer/contracts';

/**
 * Registry of operations in progress (uploads, downloads, anything long-running that holds the
 * user's keys or the server's attention). Logout aborts them all (spec section 4, Logout); leaving
 * the page or the path while one runs asks for confirmation (spec section 2, Navigation rules).
 *
 * Two ways in. A whole subsystem that tracks its own work (the transfer manager) is added once as a
 * source: `operations.addSource({ hasActive, abortAll, abortForNavigation, subscribe })`. Single
 * operations register when they start and unregister when they settle:
 *
 * ```ts
 * const controller = new AbortController();
 * const done = operations.register({ kind: 'upload', label: file.name, abort: () => controller.abort() });
 * try { await upload(file, controller.signal); } finally { done(); }
 * ```
 */
export type OperationKind = 'upload' | 'download' | 'other';

export interface OperationRegistration {
  readonly kind: OperationKind;
  /** For logs and confirmations (e.g. the file name). */
  readonly label?: string;
  /** Stops the operation; may return a promise for clean-up such as a server-side multipart abort. */
  readonly abort: () => void | Promise<void>;
}

/** A subsystem with operations of its own. */
export interface OperationSource {
  hasActive: () => boolean;
  /** Aborts everything (logout). */
  abortAll: () => Promise<unknown>;
  /** Aborts everything before the route changes (waits included); defaults to `abortAll`. */
  abortForNavigation?: () => Promise<unknown>;
  /** What aborting now would cancel, one line per kind in the user's words ('2 uploads cancelled'). */
  describeActive?: () => string[];
  /** Lets the registry tell its listeners when the source's activity changes. */
  subscribe?: (listener: () => void) => () => void;
}

export interface OperationRegistry {
  /** Registers a running operation; call the returned function when it settles. */
  register: (operation: OperationRegistration) => () => void;
  /** Adds a subsystem's operations; returns the function that removes it. */
  addSource: (source: OperationSource) => () => void;
  /** Registered operations in progress, optionally of one kind (sources not counted). */
  count: (kind?: OperationKind) => number;
  /** Anything in progress, registered or in a source. */
  hasActive: () => boolean;
  /**
   * Aborts every registered operation (of `kind`, when given; without `kind`, the sources too) and
   * unregisters it. Abort errors go to `onError` and do not stop the others.
   * Resolves with the number of registered operations aborted.
   */
  abortAll: (kind?: OperationKind) => Promise<number>;
  /** The sources' lines for what aborting now would cancel (said after a logout, issue 15). */
  describeActive: () => string[];
  /**
   * Before leaving the route (spec section 4): uploads first, a wait of 200 ms, then the rest and a
   * wait of 300 ms. Sources run their own `abortForNavigation` alongside.
   */
  abortForNavigation: () => Promise<void>;
  subscribe: (listener: () => void) => () => void;
  /** Changes whenever the set of operations changes (for `useSyncExternalStore`). */
  getSnapshot: () => number;
}

export interface OperationRegistryOptions {
  onError?: (error: unknown) => void;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

export function createOperationRegistry(options: OperationRegistryOptions = {}): OperationRegistry {
  const onError =
    options.onError ??
    ((error: unknown) => {
      console.warn('Aborting an operation failed', error);
    });
  const sleep = options.sleep ?? defaultSleep;
  const active = new Set<OperationRegistration>();
  const sources = new Set<OperationSource>();
  const listeners = new Set<() => void>();
  let version = 0;

  function changed(): void {
    version += 1;
    for (const listener of listeners) listener();
  }

  async function guarded(work: () => unknown): Promise<void> {
    try {
      await work();
    } catch (error) {
      onError(error);
    }
  }

  async function abortRegistered(kind?: OperationKind): Promise<number> {
    const targets = [...active].filter((entry) => kind === undefined || entry.kind === kind);
    for (const entry of targets) active.delete(entry);
    if (targets.length > 0) changed();
    await Promise.all(targets.map((entry) => guarded(entry.abort)));
    return targets.length;
  }

  return {
    register(operation) {
      // Wrapped so that registering the same object twice counts twice.
      const entry: OperationRegistration = { ...operation };
      active.add(entry);
      changed();
      return () => {
        if (active.delete(entry)) changed();
      };
    },
    addSource(source) {
      sources.add(source);
      const unsubscribe = source.subscribe?.(changed);
      changed();
      return () => {
        unsubscribe?.();
        if (sources.delete(source)) changed();
      };
    },
    count(kind) {
      let n = 0;
      for (const entry of active) if (kind === undefined || entry.kind === kind) n += 1;
      return n;
    },
    hasActive: () => active.size > 0 || [...sources].some((source) => source.hasActive()),
    async abortAll(kind) {
      const fromSources =
        kind === undefined ? [...sources].map((source) => guarded(() => source.abortAll())) : [];
      const [count] = await Promise.all([abortRegistered(kind), ...fromSources]);
      return count;
    },
    describeActive: () => [...sources].flatMap((source) => source.describeActive?.() ?? []),
    async abortForNavigation() {
      const fromSources = [...sources].map((source) =>
        guarded(() => (source.abortForNavigation ?? source.abortAll)()),
      );
      const [afterUploads, afterOthers] = NAV_ABORT_WAITS_MS;
      const own = (async () => {
        await abortRegistered('upload');
        await sleep(afterUploads);
        await abortRegistered();
        await sleep(afterOthers);
      })();
      await Promise.all([own, ...fromSources]);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getSnapshot: () => version,
  };
}
