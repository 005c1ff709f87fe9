/**
 * Why the app brought the visitor to /landing after a navigation error (spec section 2: "A navigation
 * error goes to /landing"), carried in the history entry's state so a reload of /landing forgets it.
 */
export interface NavigationErrorState {
  readonly navigationError: {
    /** `load`: a lazily loaded part of the app did not arrive; `error`: the page failed otherwise. */
    readonly kind: 'load' | 'error';
    /** The path (with search) that failed, for "Try again". */
    readonly from: string;
  };
}

export interface NavigationErrorMessage {
  readonly title: string;
  readonly body: string;
  /** Same-origin path "Try again" opens. */
  readonly retryPath: string;
}

const messages = {
  load: {
    title: 'That page could not be loaded',
    body:
      'Part of Coffer did not arrive, because the connection dropped or a new version of Coffer was ' +
      'just installed. Your files are safe. Check your connection and try again.',
  },
  error: {
    title: 'Something went wrong opening that page',
    body: 'Coffer ran into an error and brought you here. Your files are safe. Try again in a moment.',
  },
} as const;

/** A path of this app only: "//host" or "https://…" would lead "Try again" off-site. */
function isAppPath(path: unknown): path is string {
  return typeof path === 'string' && path.startsWith('/') && !path.startsWith('//') && !path.includes('\\');
}

/** The history state for /landing after `from` failed. */
export function navigationErrorState(kind: 'load' | 'error', from: string): NavigationErrorState {
  return { navigationError: { kind, from } };
}

/** What /landing says for its history state; null when it was not reached through a navigation error. */
export function navigationErrorMessage(state: unknown): NavigationErrorMessage | null {
  if (typeof state !== 'object' || state === null || !('navigationError' in state)) return null;
  const value = state.navigationError;
  if (typeof value !== 'object' || value === null) return null;
  const { kind, from } = value as { kind?: unknown; from?: unknown };
  if ((kind !== 'load' && kind !== 'error') || !isAppPath(from)) return null;
  return { ...messages[kind], retryPath: from };
}
