import { createAuthSession, type AuthSession } from '../../lib/auth/auth-session';
import { logoutTarget, performLogout } from '../../lib/auth/logout';
import { createOperationRegistry, type OperationRegistry } from '../../lib/auth/operations';
import { fetchClientConfig } from '../../lib/api/endpoints';
import { createApiClient, type ApiClient } from '../../lib/api/http';
import { createEncryptionSession, type EncryptionSession } from '../../lib/encryption/encryption-session';
import { keysPortFrom } from '../../lib/encryption/keys-port';
import { sessionFlags, type SessionFlags } from '../../lib/storage/session-flags';
import { createIndexedDbKeyStore } from '../../lib/storage/unlocked-key-store.idb';
import { createMemoryKeyStore, type UnlockedKeyStore } from '../../lib/storage/unlocked-key-store';
import { resetAnalytics } from '../../lib/analytics';

/**
 * Everything a signed-in tab holds: the login session, the API client that carries its tokens, the
 * encryption session, the registry of running operations and the session storage entries. One
 * instance per tab (`getAppSession()`), shared by the route loaders and the React tree.
 */
export interface AppSession {
  readonly auth: AuthSession;
  readonly api: ApiClient;
  readonly encryption: EncryptionSession;
  /** Uploads and downloads register here; logout and leaving the page abort them. */
  readonly operations: OperationRegistry;
  readonly flags: SessionFlags;
  /** Registers a clean-up for logout (e.g. clearing the query cache). */
  onLogout(handler: () => void): () => void;
  /**
   * Logs out (spec section 4). `from`: the current path, which picks the target (/unlock → /login,
   * else /landing). Runs once; later calls return the same promise.
   */
  logout(options?: { from?: string; endProviderSession?: boolean }): Promise<void>;
  isLoggingOut(): boolean;
}

export interface AppSessionParts {
  auth?: AuthSession;
  api?: ApiClient;
  encryption?: EncryptionSession;
  operations?: OperationRegistry;
  flags?: SessionFlags;
  keyStore?: UnlockedKeyStore;
  /** Full-page navigation (logout without the provider). */
  navigate?: (path: string) => void;
  /** Storages emptied on logout. */
  storages?: () => readonly (Storage | null)[];
  /** The current path, for the logout target when logout was not started from a screen. */
  currentPath?: () => string;
}

function browserStorages(): readonly (Storage | null)[] {
  const pick = (get: () => Storage): Storage | null => {
    try {
      return get();
    } catch {
      return null;
    }
  };
  return [pick(() => globalThis.sessionStorage), pick(() => globalThis.localStorage)];
}

function defaultKeyStore(): UnlockedKeyStore {
  return typeof indexedDB === 'undefined' ? createMemoryKeyStore() : createIndexedDbKeyStore();
}

/** The composition root of the browser session; tests pass fakes for any part. */
export function createAppSession(parts: AppSessionParts = {}): AppSession {
  const origin = typeof window === 'undefined' ? 'http://localhost' : window.location.origin;
  const navigate =
    parts.navigate ??
    ((path: string) => {
      window.location.assign(path);
    });
  const currentPath = parts.currentPath ?? (() => window.location.pathname);
  const flags = parts.flags ?? sessionFlags;
  let loggingOut: Promise<void> | null = null;
  const operations = parts.operations ?? createOperationRegistry();
  const auth =
    parts.auth ?? createAuthSession({ origin, loadConfig: async () => (await fetchClientConfig()).oidc });
  const api =
    parts.api ??
    createApiClient({
      getAccessToken: () => auth.getAccessToken(),
      onUnauthorized: () => {
        // Requests still in flight while logging out are answered 401; that is no token failure.
        if (loggingOut === null) auth.handleUnauthorized();
      },
    });
  const encryption =
    parts.encryption ??
    createEncryptionSession({
      keys: keysPortFrom(api),
      keyStore: parts.keyStore ?? defaultKeyStore(),
      flags,
      owner: () => auth.getSnapshot().user?.id ?? null,
    });
  const logoutHandlers = new Set<() => void>();

  const session: AppSession = {
    auth,
    api,
    encryption,
    operations,
    flags,
    onLogout(handler) {
      logoutHandlers.add(handler);
      return () => {
        logoutHandlers.delete(handler);
      };
    },
    logout(options = {}) {
      loggingOut ??= performLogout(
        {
          operations,
          encryption,
          auth,
          clearCaches: () => {
            resetAnalytics();
            for (const handler of logoutHandlers) handler();
          },
          storages: parts.storages ?? browserStorages,
          navigate,
        },
        {
          targetPath: logoutTarget(options.from ?? currentPath()),
          endProviderSession: options.endProviderSession ?? true,
        },
      );
      return loggingOut;
    },
    isLoggingOut: () => loggingOut !== null,
  };

  // Spec section 4: "A failure to acquire a token triggers logout."
  auth.onTokenFailure(() => {
    void session.logout();
  });
  // Another tab logged out: the shared login session is gone here too.
  auth.onSignedOutElsewhere(() => {
    void session.logout({ endProviderSession: false });
  });
  return session;
}

let current: AppSession | null = null;

/** The tab's session, created on first use. */
export function getAppSession(): AppSession {
  current ??= createAppSession();
  return current;
}

/** Replaces the tab's session (tests; null: the next `getAppSession()` makes a fresh one). */
export function setAppSession(session: AppSession | null): void {
  current = session;
}
