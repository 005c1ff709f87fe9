import { User, type UserManagerSettings } from 'oidc-client-ts';
import { describe, expect, it, vi } from 'vitest';
import { MemoryStorage } from '../encryption/testing/fake-keys-server';
import { createAuthSession, isSignInCallback, type AuthConfig, type UserManagerPort } from './auth-session';

const CONFIG: AuthConfig = {
  authority: 'http://localhost:8080/idp',
  clientId: 'coffer-web',
  scopes: 'openid profile email offline_access',
  resource: 'http://localhost:8080/api',
};

function makeUser(
  overrides: { expiresInSeconds?: number; accessToken?: string; state?: unknown } = {},
): User {
  return new User({
    id_token: 'id-token',
    access_token: overrides.accessToken ?? 'access-1',
    refresh_token: 'refresh-1',
    token_type: 'Bearer',
    scope: CONFIG.scopes,
    profile: {
      sub: 'acc-1',
      iss: CONFIG.authority,
      aud: CONFIG.clientId,
      exp: 0,
      iat: 0,
      name: 'Alice',
      email: 'alice@example.com',
      emails: ['alice@example.com'],
      country: 'DE',
      idp: 'local',
    },
    expires_at: Math.floor(Date.now() / 1000) + (overrides.expiresInSeconds ?? 900),
    userState: overrides.state,
  });
}

class FakeUserManager implements UserManagerPort {
  user: User | null = null;
  renewed: User | null = makeUser({ accessToken: 'access-2' });
  readonly signinRedirect = vi.fn(() => Promise.resolve());
  readonly signinSilent = vi.fn(() =>
    this.renewed === null ? Promise.reject(new Error('invalid_grant')) : Promise.resolve(this.renewed),
  );
  readonly removeUser = vi.fn(() => {
    this.user = null;
    return Promise.resolve();
  });
  readonly clearStaleState = vi.fn(() => Promise.resolve());
  endSessionEndpoint: string | undefined = 'http://localhost:8080/idp/session/end';
  readonly listeners = {
    loaded: [] as ((user: User) => void)[],
    expiring: [] as (() => void)[],
  };
  readonly events = {
    addUserLoaded: (cb: (user: User) => void) => {
      this.listeners.loaded.push(cb);
      return () => undefined;
    },
    addUserUnloaded: () => () => undefined,
    addAccessTokenExpiring: (cb: () => void) => {
      this.listeners.expiring.push(cb);
      return () => undefined;
    },
    addAccessTokenExpired: () => () => undefined,
  } as unknown as UserManagerPort['events'];
  readonly metadataService = {
    getEndSessionEndpoint: () => Promise.resolve(this.endSessionEndpoint),
  } as UserManagerPort['metadataService'];

  getUser(): Promise<User | null> {
    return Promise.resolve(this.user);
  }
  signinRedirectCallback(): Promise<User> {
    this.user = makeUser({ state: { returnPath: '/contacts' } });
    return Promise.resolve(this.user);
  }
}

function setup(configure?: (um: FakeUserManager) => void) {
  const um = new FakeUserManager();
  configure?.(um);
  const settings: UserManagerSettings[] = [];
  const navigate = vi.fn();
  const storage = new MemoryStorage();
  const auth = createAuthSession({
    origin: 'http://localhost:8080',
    loadConfig: () => Promise.resolve(CONFIG),
    createUserManager: (s) => {
      settings.push(s);
      return um;
    },
    storage: () => storage,
    navigate,
  });
  return { um, auth, settings, navigate };
}

describe('isSignInCallback', () => {
  it('recognises the provider’s redirect back', () => {
    expect(isSignInCallback('?code=a&state=b')).toBe(true);
    expect(isSignInCallback('?error=access_denied&state=b')).toBe(true);
    expect(isSignInCallback('?code=a')).toBe(false);
    expect(isSignInCallback('?action=sign-in')).toBe(false);
  });
});

describe('auth session', () => {
  it('configures oidc-client-ts from /api/config: code flow, /unlock, local storage, the API resource', async () => {
    const { auth, settings } = setup();
    await auth.ready();
    expect(settings).toHaveLength(1);
    const [s] = settings;
    expect(s).toMatchObject({
      authority: CONFIG.authority,
      client_id: 'coffer-web',
      redirect_uri: 'http://localhost:8080/unlock',
      post_logout_redirect_uri: 'http://localhost:8080/landing',
      response_type: 'code',
      scope: CONFIG.scopes,
      automaticSilentRenew: false,
      extraQueryParams: { resource: CONFIG.resource },
      extraTokenParams: { resource: CONFIG.resource },
    });
    expect(auth.getSnapshot()).toEqual({ status: 'signed-out', user: null });
  });

  it('loads the stored user and exposes their claims', async () => {
    const { auth } = setup((um) => {
      um.user = makeUser();
    });
    expect(auth.getSnapshot().status).toBe('unknown');
    await auth.ready();
    expect(auth.getSnapshot().status).toBe('signed-in');
    expect(auth.getSnapshot().user).toMatchObject({
      id: 'acc-1',
      name: 'Alice',
      email: 'alice@example.com',
      idTokenClaims: { idp: 'local', emails: ['alice@example.com'], country: 'DE' },
    });
  });

  it('signs in and up with the remembered path in the state; sign-up asks for prompt=create', async () => {
    const { auth, um } = setup();
    await auth.signIn('/contacts');
    expect(um.signinRedirect).toHaveBeenLastCalledWith({ state: { returnPath: '/contacts' } });
    await auth.signUp(null);
    expect(um.signinRedirect).toHaveBeenLastCalledWith({ state: {}, prompt: 'create' });
  });

  it('completes the sign-in and returns the carried path', async () => {
    const { auth } = setup();
    await expect(auth.completeSignIn('http://localhost:8080/unlock?code=a&state=b')).resolves.toEqual({
      returnPath: '/contacts',
    });
    expect(auth.getSnapshot().status).toBe('signed-in');
  });

  it('hands out a valid access token', async () => {
    const { auth, um } = setup((fake) => {
      fake.user = makeUser();
    });
    await expect(auth.getAccessToken()).resolves.toBe('access-1');
    expect(um.signinSilent).not.toHaveBeenCalled();
  });

  it('renews an expired token with the refresh token, sending the API resource', async () => {
    const { auth, um } = setup((fake) => {
      fake.user = makeUser({ expiresInSeconds: -5 });
    });
    await expect(auth.getAccessToken()).resolves.toBe('access-2');
    expect(um.signinSilent).toHaveBeenCalledWith({ extraTokenParams: { resource: CONFIG.resource } });
  });

  it('renews ahead of expiry (the expiring event) with the resource too', async () => {
    const { auth, um } = setup((fake) => {
      fake.user = makeUser();
    });
    await auth.ready();
    for (const listener of um.listeners.expiring) listener();
    await vi.waitFor(() => {
      expect(um.signinSilent).toHaveBeenCalledWith({ extraTokenParams: { resource: CONFIG.resource } });
    });
  });

  it('reports a failure to acquire a token (the app logs out)', async () => {
    const onFailure = vi.fn();
    const { auth } = setup((fake) => {
      fake.user = makeUser({ expiresInSeconds: -5 });
      fake.renewed = null;
    });
    auth.onTokenFailure(onFailure);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await expect(auth.getAccessToken()).resolves.toBeNull();
    expect(onFailure).toHaveBeenCalledOnce();
  });

  it('never falls back to a hidden iframe: no refresh token means the renewal failed', async () => {
    const onFailure = vi.fn();
    const { auth, um } = setup((fake) => {
      fake.user = makeUser({ expiresInSeconds: -5 });
      fake.user.refresh_token = undefined;
    });
    auth.onTokenFailure(onFailure);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await expect(auth.getAccessToken()).resolves.toBeNull();
    expect(um.signinSilent).not.toHaveBeenCalled();
    expect(onFailure).toHaveBeenCalledOnce();
  });

  it('renews on request while the token is still valid (a confirmed email shows in the new one)', async () => {
    const { auth, um } = setup((fake) => {
      fake.user = makeUser();
    });
    await auth.ready();
    await expect(auth.renewTokens()).resolves.toBe(true);
    expect(um.signinSilent).toHaveBeenCalledWith({ extraTokenParams: { resource: CONFIG.resource } });
  });

  it('a refused renewal on request (e.g. after a password reset) reports the token failure', async () => {
    const onFailure = vi.fn();
    const { auth } = setup((fake) => {
      fake.user = makeUser();
      fake.renewed = null;
    });
    await auth.ready();
    auth.onTokenFailure(onFailure);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await expect(auth.renewTokens()).resolves.toBe(false);
    expect(onFailure).toHaveBeenCalledOnce();
  });

  it('has nothing to renew when signed out', async () => {
    const { auth, um } = setup();
    await auth.ready();
    await expect(auth.renewTokens()).resolves.toBe(false);
    expect(um.signinSilent).not.toHaveBeenCalled();
  });

  it('ignores a 401 once signed out (a request still in flight)', async () => {
    const onFailure = vi.fn();
    const { auth, um } = setup();
    await auth.ready();
    auth.onTokenFailure(onFailure);
    auth.handleUnauthorized();
    await Promise.resolve();
    expect(um.signinSilent).not.toHaveBeenCalled();
    expect(onFailure).not.toHaveBeenCalled();
  });

  it('has no token when signed out', async () => {
    const { auth } = setup();
    await expect(auth.getAccessToken()).resolves.toBeNull();
  });

  it('ends the provider session with the ID token and the logout target', async () => {
    const { auth, navigate } = setup((fake) => {
      fake.user = makeUser();
    });
    await auth.ready();
    const { idToken } = await auth.forgetUser();
    expect(idToken).toBe('id-token');
    expect(auth.getSnapshot().status).toBe('signed-out');
    await auth.endSession(idToken, '/login');
    const url = new URL(String(navigate.mock.calls[0]?.[0]));
    expect(url.origin + url.pathname).toBe('http://localhost:8080/idp/session/end');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      id_token_hint: 'id-token',
      client_id: 'coffer-web',
      post_logout_redirect_uri: 'http://localhost:8080/login',
    });
  });

  it('goes straight to the target when the provider has no end-session endpoint', async () => {
    const { auth, navigate } = setup((fake) => {
      fake.endSessionEndpoint = undefined;
    });
    await auth.ready();
    await auth.endSession(null, '/landing');
    expect(navigate).toHaveBeenCalledWith('/landing');
  });

  it('notices a logout in another tab (the shared user store emptied)', async () => {
    const { auth } = setup((fake) => {
      fake.user = makeUser();
    });
    await auth.ready();
    const handler = vi.fn();
    auth.onSignedOutElsewhere(handler);
    window.dispatchEvent(new StorageEvent('storage', { key: 'unrelated', newValue: null }));
    expect(handler).not.toHaveBeenCalled();
    window.dispatchEvent(
      new StorageEvent('storage', {
        key: `oidc.user:${CONFIG.authority}:${CONFIG.clientId}`,
        newValue: null,
      }),
    );
    expect(handler).toHaveBeenCalledOnce();
    expect(auth.getSnapshot().status).toBe('signed-out');
  });
});
