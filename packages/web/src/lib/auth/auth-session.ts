import { UserManager, WebStorageStateStore, type User, type UserManagerSettings } from 'oidc-client-ts';
import { sessionUserFromClaims, type SessionUser } from './session-user';

/** The identity provider settings the server publishes at GET /api/config. */
export interface AuthConfig {
  authority: string;
  clientId: string;
  scopes: string;
  /** Resource indicator (RFC 8707) of the API; the embedded provider issues JWT access tokens for it. */
  resource: string | null;
}

/** The parts of oidc-client-ts's `UserManager` the session uses (tests pass a fake). */
export type UserManagerPort = Pick<
  UserManager,
  'getUser' | 'signinRedirect' | 'signinRedirectCallback' | 'signinSilent' | 'removeUser' | 'clearStaleState'
> & {
  readonly events: Pick<
    UserManager['events'],
    'addUserLoaded' | 'addUserUnloaded' | 'addAccessTokenExpiring' | 'addAccessTokenExpired'
  >;
  readonly metadataService: Pick<UserManager['metadataService'], 'getEndSessionEndpoint'>;
};

export type AuthStatus = 'unknown' | 'signed-out' | 'signed-in';

export interface AuthSnapshot {
  readonly status: AuthStatus;
  readonly user: SessionUser | null;
}

export interface AuthSessionDeps {
  loadConfig: () => Promise<AuthConfig>;
  /** `https://host:port` of the app: the redirect URIs are built from it. */
  origin: string;
  createUserManager?: (settings: UserManagerSettings) => UserManagerPort;
  /** Where the user store lives; the spec keeps the login session in local storage. */
  storage?: () => Storage;
  /** Full-page navigation (the end-session redirect). */
  navigate?: (url: string) => void;
  /** Seconds before expiry at which an access token counts as expired and is renewed. */
  expirySkewSeconds?: number;
}

/** What the sign-in redirect carries through the identity provider and back. */
interface SignInState {
  returnPath?: string;
}

export interface AuthSession {
  subscribe: (listener: () => void) => () => void;
  getSnapshot: () => AuthSnapshot;
  /** Loads the provider settings and the stored user (once); later calls return the same promise. */
  ready(): Promise<void>;
  /** Sets what happens when no access token can be acquired (the app logs out). */
  onTokenFailure(handler: () => void): void;
  /** Redirects to the provider's sign-in page; the provider sends the browser back to /unlock. */
  signIn(returnPath?: string | null): Promise<void>;
  /** Like `signIn`, but opens the provider's account creation page (`prompt=create`). */
  signUp(returnPath?: string | null): Promise<void>;
  /** On /unlock with `?code=&state=`: exchanges the code, stores the user, returns the carried path. */
  completeSignIn(url: string): Promise<{ returnPath: string | null }>;
  /** A valid access token, renewed with the refresh token when expired; null when signed out. */
  getAccessToken(): Promise<string | null>;
  /** Called on a 401 answer: renew once; if that fails, the token failure handler runs. */
  handleUnauthorized(): void;
  /**
   * Renews the tokens now with the refresh token, whether or not they are about to expire, so the
   * new ones carry what changed at the provider (e.g. `email_verified` after the address was
   * confirmed). False when it failed; the token failure handler (logout) has then run.
   */
  renewTokens(): Promise<boolean>;
  /** Forgets the signed-in user here and returns what the end-session redirect needs. */
  forgetUser(): Promise<{ idToken: string | null }>;
  /**
   * Ends the provider's session too when it has an end-session endpoint (RP-initiated logout,
   * back to `origin + targetPath`); otherwise navigates to `targetPath`.
   */
  endSession(idToken: string | null, targetPath: string): Promise<void>;
  /** Runs when another tab of this browser signs out (the shared user store is emptied). */
  onSignedOutElsewhere(handler: () => void): () => void;
}

const UNKNOWN: AuthSnapshot = { status: 'unknown', user: null };
const SIGNED_OUT: AuthSnapshot = { status: 'signed-out', user: null };

/** The redirect back from the provider: `code` (or `error`) together with `state`. */
export function isSignInCallback(search: string): boolean {
  const params = new URLSearchParams(search);
  return params.has('state') && (params.has('code') || params.has('error'));
}

/**
 * The login session (issue 5, part 4): an oidc-client-ts `UserManager` configured from /api/config,
 * authorization code flow with PKCE, user in local storage, refresh tokens instead of an iframe.
 *
 * Automatic renewal is done here rather than by oidc-client-ts: its built-in renewal does not send
 * `extraTokenParams` on the refresh request, and without `resource` the embedded provider would
 * answer with a token the API does not accept.
 */
export function createAuthSession(deps: AuthSessionDeps): AuthSession {
  const storage = deps.storage ?? (() => globalThis.localStorage);
  const navigate =
    deps.navigate ??
    ((url: string) => {
      window.location.assign(url);
    });
  const skew = deps.expirySkewSeconds ?? 10;
  const createUserManager =
    deps.createUserManager ?? ((settings: UserManagerSettings) => new UserManager(settings));

  let snapshot: AuthSnapshot = UNKNOWN;
  let manager: UserManagerPort | null = null;
  let config: AuthConfig | null = null;
  let readyPromise: Promise<void> | null = null;
  let renewing: Promise<User | null> | null = null;
  let tokenFailureHandler: () => void = () => undefined;
  const listeners = new Set<() => void>();
  const signedOutElsewhere = new Set<() => void>();

  function publish(next: AuthSnapshot): void {
    snapshot = next;
    for (const listener of listeners) listener();
  }

  function fromUser(user: User | null): AuthSnapshot {
    if (user === null) return SIGNED_OUT;
    return { status: 'signed-in', user: sessionUserFromClaims(user.profile) };
  }

  function tokenParams(): Record<string, string> {
    return config?.resource ? { resource: config.resource } : {};
  }

  function userStorageKey(): string | null {
    return config === null ? null : `oidc.user:${config.authority}:${config.clientId}`;
  }

  async function userManager(): Promise<UserManagerPort> {
    await session.ready();
    if (manager === null) throw new Error('The sign-in service is not configured');
    return manager;
  }

  /**
   * Refresh-token renewal, shared by concurrent callers. Null when it failed. Without a refresh
   * token there is nothing to renew with: the app uses no hidden-iframe renewal (oidc-client-ts would
   * otherwise load a page in an iframe with `prompt=none`).
   */
  function renew(um: UserManagerPort): Promise<User | null> {
    renewing ??= (async () => {
      const user = await um.getUser();
      if (user?.refresh_token === undefined || user.refresh_token === '') {
        throw new Error('No refresh token to renew the access token with');
      }
      return um.signinSilent({ extraTokenParams: tokenParams() });
    })()
      .catch((error: unknown) => {
        console.warn('Renewing the access token failed', error);
        return null;
      })
      .finally(() => {
        renewing = null;
      });
    return renewing;
  }

  async function renewOrFail(um: UserManagerPort): Promise<User | null> {
    const user = await renew(um);
    if (user === null) tokenFailureHandler();
    return user;
  }

  function isUsable(user: User): boolean {
    return user.expires_at === undefined || user.expires_at - skew > Date.now() / 1000;
  }

  function onStorage(event: StorageEvent): void {
    if (snapshot.status !== 'signed-in') return;
    const key = userStorageKey();
    const cleared = event.key === null || (event.key === key && event.newValue === null);
    if (!cleared) return;
    publish(SIGNED_OUT);
    for (const handler of signedOutElsewhere) handler();
  }

  async function start(): Promise<void> {
    config = await deps.loadConfig();
    const settings: UserManagerSettings = {
      authority: config.authority,
      client_id: config.clientId,
      redirect_uri: `${deps.origin}/unlock`,
      post_logout_redirect_uri: `${deps.origin}/landing`,
      response_type: 'code',
      scope: config.scopes,
      userStore: new WebStorageStateStore({ store: storage() }),
      stateStore: new WebStorageStateStore({ store: storage() }),
      automaticSilentRenew: false,
      // The claims the app shows (name, emails, country, idp) come in the ID token.
      loadUserInfo: false,
      extraQueryParams: tokenParams(),
      extraTokenParams: tokenParams(),
    };
    const um = createUserManager(settings);
    manager = um;
    um.events.addUserLoaded((user) => {
      publish(fromUser(user));
    });
    um.events.addUserUnloaded(() => {
      publish(SIGNED_OUT);
    });
    um.events.addAccessTokenExpiring(() => {
      void renewOrFail(um);
    });
    um.events.addAccessTokenExpired(() => {
      void renewOrFail(um);
    });
    if (typeof window !== 'undefined') window.addEventListener('storage', onStorage);
    void um.clearStaleState().catch(() => undefined);
    const user = await um.getUser();
    publish(fromUser(user));
  }

  const session: AuthSession = {
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getSnapshot: () => snapshot,
    ready() {
      readyPromise ??= start().catch((error: unknown) => {
        readyPromise = null;
        throw error;
      });
      return readyPromise;
    },
    onTokenFailure(handler) {
      tokenFailureHandler = handler;
    },

    async signIn(returnPath) {
      const state: SignInState = returnPath ? { returnPath } : {};
      await (await userManager()).signinRedirect({ state });
    },

    async signUp(returnPath) {
      const state: SignInState = returnPath ? { returnPath } : {};
      await (await userManager()).signinRedirect({ state, prompt: 'create' });
    },

    async completeSignIn(url) {
      const user = await (await userManager()).signinRedirectCallback(url);
      publish(fromUser(user));
      const state = user.state as SignInState | undefined;
      const returnPath = typeof state?.returnPath === 'string' ? state.returnPath : null;
      return { returnPath };
    },

    async getAccessToken() {
      const um = await userManager();
      const user = await um.getUser();
      if (user === null) return null;
      if (isUsable(user)) return user.access_token;
      const renewed = await renewOrFail(um);
      return renewed?.access_token ?? null;
    },

    handleUnauthorized() {
      // Signed out already: the request went without a token, and there is nothing to renew.
      if (manager === null || snapshot.status !== 'signed-in') return;
      void renewOrFail(manager);
    },

    async renewTokens() {
      if (snapshot.status !== 'signed-in') return false;
      return (await renewOrFail(await userManager())) !== null;
    },

    async forgetUser() {
      if (manager === null) {
        publish(SIGNED_OUT);
        return { idToken: null };
      }
      const user = await manager.getUser().catch(() => null);
      await manager.removeUser().catch(() => undefined);
      await manager.clearStaleState().catch(() => undefined);
      publish(SIGNED_OUT);
      return { idToken: user?.id_token ?? null };
    },

    async endSession(idToken, targetPath) {
      const target = `${deps.origin}${targetPath}`;
      let endpoint: string | undefined;
      try {
        endpoint = await manager?.metadataService.getEndSessionEndpoint();
      } catch {
        endpoint = undefined;
      }
      if (endpoint === undefined || config === null) {
        navigate(targetPath);
        return;
      }
      const url = new URL(endpoint);
      if (idToken !== null) url.searchParams.set('id_token_hint', idToken);
      url.searchParams.set('client_id', config.clientId);
      url.searchParams.set('post_logout_redirect_uri', target);
      navigate(url.toString());
    },

    onSignedOutElsewhere(handler) {
      signedOutElsewhere.add(handler);
      return () => {
        signedOutElsewhere.delete(handler);
      };
    },
  };
  return session;
}
