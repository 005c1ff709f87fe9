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
import type { KeyRecord, MeResponse } from '@coffer/contracts';
import { ApiRequestError, type ApiClient, type RequestOptions } from '../../lib/api/http';
import type { AuthSession, AuthSnapshot } from '../../lib/auth/auth-session';
import { sessionUserFromClaims, type SessionUser } from '../../lib/auth/session-user';
import { createEncryptionSession } from '../../lib/encryption/encryption-session';
import { FakeKeysServer, MemoryStorage } from '../../lib/encryption/testing/fake-keys-server';
import type { PinsPort } from '../../lib/trust/pin-book';
import { createMemoryPinHighWater, type PinHighWaterStore } from '../../lib/trust/pin-high-water';
import { createSessionFlags } from '../../lib/storage/session-flags';
import { createMemoryKeyStore, type UnlockedKeyStore } from '../../lib/storage/unlocked-key-store';
import { createAppSession, type AppSession } from '../app-session';

export const TEST_MASTER_KEY = 'Test-Master-Key-1';
// The fewest iterations @coffer/crypto accepts (fewer is refused as a KDF downgrade).
const TEST_ITERATIONS = 100_000;

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
  /** How often `renewTokens` ran. */
  readonly renewals: () => number;
  /** Runs inside each `renewTokens` (e.g. the provider now says the email is verified); false: refused. */
  onRenew: () => boolean;
  /** The provider refuses to renew the tokens: runs the token failure handler. */
  failToken(): void;
}

export function createFakeAuthSession(initialUser: SessionUser | null = testUser): FakeAuthSession {
  let snapshot: AuthSnapshot =
    initialUser === null ? { status: 'signed-out', user: null } : { status: 'signed-in', user: initialUser };
  const listeners = new Set<() => void>();
  const redirects: string[] = [];
  let renewals = 0;
  let tokenFailure: () => void = () => undefined;
  const publish = (next: AuthSnapshot): void => {
    snapshot = next;
    for (const listener of listeners) listener();
  };
  const setUser = (user: SessionUser | null): void => {
    publish(user === null ? { status: 'signed-out', user: null } : { status: 'signed-in', user });
  };
  const fake: FakeAuthSession = {
    redirects,
    setUser,
    renewals: () => renewals,
    onRenew: () => true,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getSnapshot: () => snapshot,
    ready: () => Promise.resolve(),
    onTokenFailure: (handler) => {
      tokenFailure = handler;
    },
    failToken: () => {
      tokenFailure();
    },
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
    renewTokens: () => {
      renewals += 1;
      return Promise.resolve(snapshot.user !== null && fake.onRenew());
    },
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
  return fake;
}

/** What GET /users/me answers for a verified, non-admin user of the embedded provider. */
export function verifiedMe(user: SessionUser = testUser): MeResponse {
  return { email: user.email, emailVerified: true, isAdmin: false, canResendVerification: true };
}

/** `api`, except that GET /users/me is answered from `me()` (every screen test would fake it otherwise). */
function withFakeMe(api: ApiClient, me: () => MeResponse, onCall: () => void): ApiClient {
  return {
    ...api,
    async request<T>(method: string, path: string, options?: RequestOptions): Promise<T> {
      if (method !== 'GET' || path !== '/users/me') return api.request<T>(method, path, options);
      onCall();
      await Promise.resolve();
      return { ...me() } as T;
    },
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

/**
 * Key records made by `setUp`, per user (a record binds its owner and email): made once, then reused by
 * every later session of that user, in this file and, where Vitest runs files in one module graph
 * (`isolate: false`), in the files after it.
 */
const cachedRecords = new Map<string, KeyRecord>();

/** GET/PUT /users/pins in memory (version checks are the real server's; the client checks too). */
function createMemoryPins(): PinsPort & { stored: string | null } {
  const pins = {
    stored: null as string | null,
    get: () => Promise.resolve(pins.stored),
    put: (body: { pinSet: string }) => {
      pins.stored = body.pinSet;
      return Promise.resolve();
    },
  };
  return pins;
}

export interface TestAppSessionOptions {
  signedIn?: boolean;
  /** Unlock encryption with a test key (made once per user, then reused: see `cachedRecords`). */
  unlocked?: boolean;
  /** The user has a key on the (fake) server, so /unlock offers to unlock rather than set up. */
  hasKeys?: boolean;
  user?: SessionUser;
  api?: ApiClient;
  /** A page reload of that session: same login, server, tab storage and key store; memory is fresh. */
  reloadOf?: TestAppSession;
  /** The answer of GET /users/me (default: verified, not admin); `setMe` changes it later. */
  me?: MeResponse;
}

export interface TestAppSession extends AppSession {
  readonly auth: FakeAuthSession;
  readonly keysServer: FakeKeysServer;
  /** The sealed pin set as the (fake) server stores it. */
  readonly pinsServer: PinsPort & { stored: string | null };
  /** This browser's pin set high-water marks (IndexedDB in the app): kept by a logout. */
  readonly pinHighWater: PinHighWaterStore;
  readonly storage: MemoryStorage;
  readonly keyStore: UnlockedKeyStore;
  readonly navigations: string[];
  /** Changes what GET /users/me answers from now on. */
  setMe(next: Partial<MeResponse>): void;
  /** How often GET /users/me was asked. */
  readonly meCalls: () => number;
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
  const pinsServer = previous?.pinsServer ?? createMemoryPins();
  const pinHighWater = previous?.pinHighWater ?? createMemoryPinHighWater();
  const encryption = createEncryptionSession({
    keys: keysServer,
    keyStore,
    flags,
    owner: () => auth.getSnapshot().user?.id ?? null,
    email: () => auth.getSnapshot().user?.email ?? null,
    pbkdf2Iterations: TEST_ITERATIONS,
    sleep: () => Promise.resolve(),
  });
  if (previous === undefined && (options.unlocked === true || options.hasKeys === true)) {
    const user = auth.getSnapshot().user;
    const recordKey = `${user?.id ?? ''}\n${user?.email ?? ''}`;
    const cachedRecord = cachedRecords.get(recordKey);
    if (cachedRecord === undefined) {
      await encryption.setUp(TEST_MASTER_KEY);
      const made = keysServer.records[0];
      if (made !== undefined) cachedRecords.set(recordKey, made);
      if (options.unlocked !== true) await encryption.clear();
    } else {
      keysServer.records.push({ ...cachedRecord });
      if (options.unlocked === true) await encryption.unlock(TEST_MASTER_KEY);
    }
  }
  let me: MeResponse = options.me ?? verifiedMe(auth.getSnapshot().user ?? testUser);
  let meCalls = 0;
  const api = withFakeMe(
    options.api ?? createOfflineApiClient(),
    () => me,
    () => {
      meCalls += 1;
    },
  );
  const session = createAppSession({
    auth,
    api,
    encryption,
    flags,
    storages: () => [storage],
    // The pin set lives with the fake server of this test, whatever API client the screen uses.
    pins: previous?.pinsServer ?? pinsServer,
    pinHighWater,
    navigate: (path) => {
      navigations.push(path);
    },
  });
  return Object.assign(session, {
    auth,
    keysServer,
    pinsServer,
    pinHighWater,
    storage,
    keyStore,
    navigations,
    setMe: (next: Partial<MeResponse>) => {
      me = { ...me, ...next };
    },
    meCalls: () => meCalls,
  });
}
