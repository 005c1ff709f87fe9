import { createAuthSession, type AuthSession } from '../lib/auth/auth-session';
import { logoutTarget, performLogout } from '../lib/auth/logout';
import { createOperationRegistry, type OperationRegistry } from '../lib/auth/operations';
import { fetchClientConfig, pinsApi } from '../lib/api/endpoints';
import {
  createTrustSession,
  MISSING_SIGNING_KEY,
  type TrustKeys,
  type TrustSession,
} from '../lib/trust/trust-session';
import type { PinsPort } from '../lib/trust/pin-book';
import { createMemoryPinHighWater, pinVersionsOf, type PinHighWaterStore } from '../lib/trust/pin-high-water';
import { createIndexedDbPinHighWater } from '../lib/trust/pin-high-water.idb';
import type { UnlockedKeys } from '../lib/encryption/encryption-session';
import { createApiClient, type ApiClient } from '../lib/api/http';
import { createEncryptionSession, type EncryptionSession } from '../lib/encryption/encryption-session';
import { keysPortFrom } from '../lib/encryption/keys-port';
import {
  SESSION_ENDED_FLAG,
  TRANSFERS_CANCELLED_FLAG,
  sessionFlags,
  sessionStorageKeys,
  type SessionFlags,
} from '../lib/storage/session-flags';
import { createIndexedDbKeyStore } from '../lib/storage/unlocked-key-store.idb';
import { createMemoryKeyStore, type UnlockedKeyStore } from '../lib/storage/unlocked-key-store';
import { resetAnalytics } from '../lib/analytics';
import {
  createEmailVerificationSignal,
  watchEmailVerification,
  type EmailVerificationSignal,
} from '../lib/auth/email-verification';

/**
 * Everything a signed-in tab holds: the login session, the API client that carries its tokens, the
 * encryption session, the registry of running operations and the session storage entries. One
 * instance per tab (`getAppSession()`), shared by the route loaders and the React tree.
 */
export interface AppSession {
  readonly auth: AuthSession;
  readonly api: ApiClient;
  readonly encryption: EncryptionSession;
  /** The user's pinned contact keys (issue 13), opened at every unlock. */
  readonly trust: TrustSession;
  /** Uploads and downloads register here; logout and leaving the page abort them. */
  readonly operations: OperationRegistry;
  readonly flags: SessionFlags;
  /** Fires when the API refuses a call because the caller's email is not verified (EMAIL_NOT_VERIFIED). */
  readonly emailVerification: EmailVerificationSignal;
  /** Registers a clean-up for logout (e.g. clearing the query cache). */
  onLogout(handler: () => void): () => void;
  /**
   * Logs out (spec section 4). `from`: the screen the person pressed Logout on, which picks the
   * target (/unlock → /login, else /landing). A logout nobody pressed (a token that cannot be
   * renewed, another tab) always ends at /landing, whatever screen was showing: on a reload the
   * app may be passing through /unlock when the token fails. Runs once; later calls return the
   * same promise.
   */
  logout(options?: LogoutRequest): Promise<void>;
  isLoggingOut(): boolean;
}

export interface LogoutRequest {
  from?: string;
  endProviderSession?: boolean;
  /**
   * The session ended without the person asking (a token that cannot be renewed): keep the
   * remembered path, so logging in again returns there, and let /landing say why.
   */
  expired?: boolean;
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
  /** Where the sealed pin set is stored (default: GET/PUT /users/pins through `api`). */
  pins?: PinsPort;
  /**
   * Where the highest pin set version seen is remembered, per user, across logouts (default:
   * IndexedDB, which logout does not empty).
   */
  pinHighWater?: PinHighWaterStore;
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

function defaultPinHighWater(): PinHighWaterStore {
  return typeof indexedDB === 'undefined' ? createMemoryPinHighWater() : createIndexedDbPinHighWater();
}

/** The composition root of the browser session; tests pass fakes for any part. */
export function createAppSession(parts: AppSessionParts = {}): AppSession {
  const origin = typeof window === 'undefined' ? 'http://localhost' : window.location.origin;
  const navigate =
    parts.navigate ??
    ((path: string) => {
      window.location.assign(path);
    });
  const flags = parts.flags ?? sessionFlags;
  let loggingOut: Promise<void> | null = null;
  const operations = parts.operations ?? createOperationRegistry();
  const auth =
    parts.auth ?? createAuthSession({ origin, loadConfig: async () => (await fetchClientConfig()).oidc });
  const emailVerification = createEmailVerificationSignal();
  const baseApi =
    parts.api ??
    createApiClient({
      getAccessToken: () => auth.getAccessToken(),
      onUnauthorized: () => {
        // Requests still in flight while logging out are answered 401; that is no token failure.
        if (loggingOut === null) auth.handleUnauthorized();
      },
    });
  const api = watchEmailVerification(baseApi, emailVerification);
  const encryption =
    parts.encryption ??
    createEncryptionSession({
      keys: keysPortFrom(api),
      keyStore: parts.keyStore ?? defaultKeyStore(),
      flags,
      owner: () => auth.getSnapshot().user?.id ?? null,
      email: () => auth.getSnapshot().user?.email ?? null,
    });
  const trustKeysOf = new WeakMap<UnlockedKeys, TrustKeys>();
  const pinHighWater = parts.pinHighWater ?? defaultPinHighWater();
  const trust = createTrustSession({
    pins: parts.pins ?? {
      get: () => pinsApi.get(api),
      put: async (body) => {
        await pinsApi.put(api, body);
      },
    },
    versions: (keys) => pinVersionsOf(pinHighWater, keys.signingPublicKeyB64),
    keys: () => {
      const state = encryption.getSnapshot();
      const email = auth.getSnapshot().user?.email ?? null;
      if (state.status !== 'unlocked' || email === null) return null;
      const { privateKey, publicKeyB64, signingPrivateKey, signingPublicKeyB64 } = state.keys;
      // Adding the signing key at unlock failed: no pins, no sharing, until the next unlock.
      if (signingPrivateKey === undefined || signingPublicKeyB64 === undefined) return MISSING_SIGNING_KEY;
      let keys = trustKeysOf.get(state.keys);
      if (keys === undefined) {
        keys = { email, privateKey, publicKeyB64, signingPrivateKey, signingPublicKeyB64 };
        trustKeysOf.set(state.keys, keys);
      }
      return keys;
    },
  });
  // Open the pins at unlock, so a forged or rolled-back copy shows before the first share.
  encryption.subscribe(() => {
    if (encryption.isUnlocked()) {
      trust.open().catch((error: unknown) => {
        console.warn('Opening the pinned contact keys failed', error);
      });
    } else {
      trust.forget();
    }
  });
  const logoutHandlers = new Set<() => void>();
  let cancelledByLogout: string[] = [];

  const session: AppSession = {
    auth,
    api,
    encryption,
    trust,
    operations,
    flags,
    emailVerification,
    onLogout(handler) {
      logoutHandlers.add(handler);
      return () => {
        logoutHandlers.delete(handler);
      };
    },
    logout(options = {}) {
      if (loggingOut === null) {
        // Read before logout aborts them; said on /landing afterwards.
        cancelledByLogout = operations.describeActive();
      }
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
          targetPath: options.from === undefined ? '/landing' : logoutTarget(options.from),
          endProviderSession: options.endProviderSession ?? true,
          afterStoragesCleared: keepAcrossLogout(flags, {
            expired: options.expired === true,
            cancelled: cancelledByLogout,
          }),
        },
      );
      return loggingOut;
    },
    isLoggingOut: () => loggingOut !== null,
  };

  // Spec section 4: "A failure to acquire a token triggers logout."
  auth.onTokenFailure(() => {
    void session.logout({ expired: true });
  });
  // Another tab logged out: the shared login session is gone here too.
  auth.onSignedOutElsewhere(() => {
    void session.logout({ endProviderSession: false });
  });
  return session;
}

/**
 * What must outlive the logout, read now (before logout empties storage) and put back after: for an
 * expired session the remembered path and the notice, and the transfers the logout cancelled.
 */
function keepAcrossLogout(
  flags: SessionFlags,
  { expired, cancelled }: { expired: boolean; cancelled: readonly string[] },
): () => void {
  const remembered = expired ? flags.get(sessionStorageKeys.redirectAfterUnlock) : null;
  return () => {
    if (remembered !== null) flags.set(sessionStorageKeys.redirectAfterUnlock, remembered);
    if (expired) flags.set(SESSION_ENDED_FLAG, 'true');
    if (cancelled.length > 0) flags.set(TRANSFERS_CANCELLED_FLAG, JSON.stringify(cancelled));
  };
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
