/**
 * Test doubles of the tab's session, for component and route tests (happy-dom has no identity
 * provider and no IndexedDB). Usage with the app's route table:
 *
 * ```ts
 * const session = await createTestAppSession({ signedIn: true, unlocked: true });
 * setAppSession(session);           // route loaders use it
 * renderRoute('/contacts');         // AppProviders picks it up too
 * afterEach(() => setAppSession(null));
 * ```
 */
import type { KeyRecord } from '@coffer/contracts';
import { ApiRequestError, type ApiClient } from '../../lib/api/http';
import type { AuthSession, AuthSnapshot } from '../../lib/auth/auth-session';
import { sessionUserFromClaims, type SessionUser } from '../../lib/auth/session-user';
import { createEncryptionSession } from '../../lib/encryption/encryption-session';
import { FakeKeysServer, MemoryStorage } from '../../lib/encryption/testing/fake-keys-server';
import { createSessionFlags } from '../../lib/storage/session-flags';
import { createMemoryKeyStore, type UnlockedKeyStore } from '../../lib/storage/unlocked-key-store';
import { createAppSession, type AppSession } from './app-session';

export const TEST_MASTER_KEY = 'Test-Master-Key-1';
const TEST_ITERATIONS = 1000;

export const testUser: SessionUser = sessionUserFromClaims({
  sub: 'test-user',
  name: 'Test User',
  email: 'test.user@example.com',
  emails: ['test.user@example.com'],
  country: 'DE',
  idp: 'local',
});

/** A login session without a provider: signed in as `user`, or signed out. Records redirects. */
export interface FakeAuthSession extends AuthSession {
  readonly redirects: string[];
  setUser(user: SessionUser | null): void;
}

export function createFakeAuthSession(initialUser: SessionUser | null = testUser): FakeAuthSession {
  let snapshot: AuthSnapshot =
    initialUser === null ? { status: 'signed-out', user: null } : { status: 'signed-in', user: initialUser };
  const listeners = new Set<() => void>();
  const redirects: string[] = [];
  const publish = (next: AuthSnapshot): void => {
    snapshot = next;
    for (const listener of listeners) listener();
  };
  const setUser = (user: SessionUser | null): void => {
    publish(user === null ? { status: 'signed-out', user: null } : { status: 'signed-in', user });
  };
  return {
    redirects,
    setUser,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getSnapshot: () => snapshot,
    ready: () => Promise.resolve(),
    onTokenFailure: () => undefined,
    signIn: (returnPath) => {
      redirects.push(`sign-in ${returnPath ?? ''}`.trim());
      return Promise.resolve();
    },
    signUp: (returnPath) => {
      redirects.push(`sign-up ${returnPath ?? ''}`.trim());
      return Promise.resolve();
    },
    completeSignIn: () => {
      setUser(testUser);
      return Promise.resolve({ returnPath: null });
    },
    getAccessToken: () => Promise.resolve(snapshot.user === null ? null : 'test-access-token'),
    handleUnauthorized: () => undefined,
    forgetUser: () => {
      setUser(null);
      return Promise.resolve({ idToken: 'test-id-token' });
    },
    endSession: (_idToken, targetPath) => {
      redirects.push(`end-session ${targetPath}`);
      return Promise.resolve();
    },
    onSignedOutElsewhere: () => () => undefined,
  };
}

/** An API client that answers every call with 503, for tests that never reach the server. */
export function createOfflineApiClient(): ApiClient {
  const fail = (): Promise<never> => Promise.reject(new ApiRequestError(503, ''));
  return {
    request: fail,
    fetchRaw: fail,
    authHeaders: () => Promise.resolve({}),
    reportUnauthorized: () => undefined,
  };
}

let cachedRecord: KeyRecord | null = null;

export interface TestAppSessionOptions {
  signedIn?: boolean;
  /** Unlock encryption with a test key (made once per test file, then reused). */
  unlocked?: boolean;
  /** The user has a key on the (fake) server, so /unlock offers to unlock rather than set up. */
  hasKeys?: boolean;
  user?: SessionUser;
  api?: ApiClient;
  /** A page reload of that session: same login, server, tab storage and key store; memory is fresh. */
  reloadOf?: TestAppSession;
}

export interface TestAppSession extends AppSession {
  readonly auth: FakeAuthSession;
  readonly keysServer: FakeKeysServer;
  readonly storage: MemoryStorage;
  readonly keyStore: UnlockedKeyStore;
  readonly navigations: string[];
}

/** A whole session with fakes at the edges and the real encryption session in between. */
export async function createTestAppSession(options: TestAppSessionOptions = {}): Promise<TestAppSession> {
  const previous = options.reloadOf;
  const auth =
    previous?.auth ?? createFakeAuthSession(options.signedIn === false ? null : (options.user ?? testUser));
  const keysServer = previous?.keysServer ?? new FakeKeysServer();
  const storage = previous?.storage ?? new MemoryStorage();
  const keyStore = previous?.keyStore ?? createMemoryKeyStore();
  const flags = createSessionFlags(() => storage);
  const navigations: string[] = [];
  const encryption = createEncryptionSession({
    keys: keysServer,
    keyStore,
    flags,
    owner: () => auth.getSnapshot().user?.id ?? null,
    pbkdf2Iterations: TEST_ITERATIONS,
    sleep: () => Promise.resolve(),
  });
  if (previous === undefined && (options.unlocked === true || options.hasKeys === true)) {
    if (cachedRecord === null) {
      await encryption.setUp(TEST_MASTER_KEY);
      cachedRecord = keysServer.records[0] ?? null;
      if (options.unlocked !== true) await encryption.clear();
    } else {
      keysServer.records.push({ ...cachedRecord });
      if (options.unlocked === true) await encryption.unlock(TEST_MASTER_KEY);
    }
  }
  const session = createAppSession({
    auth,
    api: options.api ?? createOfflineApiClient(),
    encryption,
    flags,
    storages: () => [storage],
    navigate: (path) => {
      navigations.push(path);
    },
    currentPath: () => '/',
  });
  return Object.assign(session, { auth, keysServer, storage, keyStore, navigations });
}
