import { describe, expect, it } from 'vitest';
import {
  afterUnlockPath,
  decideNavigation,
  isSafeReturnPath,
  pathToRemember,
  shouldRedirectToUnlock,
  signInActionOf,
  type NavigationState,
  type RouteLocation,
} from './navigation-rules';

const at = (pathname: string, search = '', id?: string): RouteLocation => ({ pathname, search, id });
const state = (overrides: Partial<NavigationState> = {}): NavigationState => ({
  signedIn: true,
  unlocked: false,
  restoreTried: false,
  rememberedPath: null,
  ...overrides,
});

describe('remembered path', () => {
  it('remembers the full path of auth-required and account routes', () => {
    expect(pathToRemember('auth', { pathname: '/contacts', search: '?q=al', hash: '#top' })).toBe(
      '/contacts?q=al#top',
    );
    expect(pathToRemember('file-share', at('/share/f1', '', 'f1'))).toBe('/share/f1');
    expect(pathToRemember('invite-email', at('/invite/a%40b.c', '?reason=invite-email'))).toBe(
      '/invite/a%40b.c?reason=invite-email',
    );
  });

  it('never remembers /unlock, /landing or other public pages', () => {
    expect(pathToRemember('unlock', at('/unlock'))).toBeNull();
    expect(pathToRemember('public', at('/landing'))).toBeNull();
    expect(pathToRemember('public', at('/login'))).toBeNull();
  });

  it('goes back to the remembered path after unlock, or /new', () => {
    expect(afterUnlockPath('/contacts?q=x')).toBe('/contacts?q=x');
    expect(afterUnlockPath(null)).toBe('/new');
    expect(afterUnlockPath('/unlock')).toBe('/new');
    expect(afterUnlockPath('/landing?reason=other')).toBe('/new');
    expect(afterUnlockPath('//evil.example/x')).toBe('/new');
    expect(afterUnlockPath('https://evil.example')).toBe('/new');
  });

  it('accepts only paths of this app as return paths', () => {
    expect(isSafeReturnPath('/myfiles')).toBe(true);
    expect(isSafeReturnPath('//evil.example')).toBe(false);
    expect(isSafeReturnPath('/\\evil.example')).toBe(false);
    expect(isSafeReturnPath('javascript:alert(1)')).toBe(false);
    expect(isSafeReturnPath(undefined)).toBe(false);
  });
});

describe('auth-required routes', () => {
  it('send a visitor with no account to /landing', () => {
    expect(decideNavigation('auth', at('/contacts'), state({ signedIn: false }))).toEqual({
      type: 'redirect',
      to: '/landing',
    });
  });

  it('try to restore the keys before sending a locked user to /unlock', () => {
    expect(decideNavigation('auth', at('/contacts'), state())).toEqual({ type: 'try-restore' });
    expect(decideNavigation('auth', at('/contacts'), state({ restoreTried: true }))).toEqual({
      type: 'redirect',
      to: '/unlock',
    });
  });

  it('let a signed-in, unlocked user through', () => {
    expect(decideNavigation('auth', at('/contacts'), state({ unlocked: true }))).toEqual({ type: 'allow' });
  });
});

describe('/unlock', () => {
  it('completes the sign-in when the provider sends the browser back', () => {
    expect(
      decideNavigation('unlock', at('/unlock', '?code=abc&state=xyz'), state({ signedIn: false })),
    ).toEqual({
      type: 'complete-sign-in',
    });
    expect(
      decideNavigation('unlock', at('/unlock', '?error=access_denied&state=xyz'), state({ signedIn: false })),
    ).toEqual({ type: 'complete-sign-in' });
  });

  it('sends a visitor with no account and no sign-in in progress to /landing', () => {
    expect(decideNavigation('unlock', at('/unlock'), state({ signedIn: false }))).toEqual({
      type: 'redirect',
      to: '/landing',
    });
  });

  it("starts the provider's sign-in or sign-up for the landing page's buttons", () => {
    expect(decideNavigation('unlock', at('/unlock', '?action=sign-in'), state({ signedIn: false }))).toEqual({
      type: 'start-sign-in',
      mode: 'sign-in',
    });
    expect(decideNavigation('unlock', at('/unlock', '?action=sign-up'), state({ signedIn: false }))).toEqual({
      type: 'start-sign-in',
      mode: 'sign-up',
    });
    expect(signInActionOf('?action=other')).toBeNull();
  });

  it('tries to restore, then shows the unlock screen', () => {
    expect(decideNavigation('unlock', at('/unlock'), state())).toEqual({ type: 'try-restore' });
    expect(decideNavigation('unlock', at('/unlock'), state({ restoreTried: true }))).toEqual({
      type: 'allow',
    });
  });

  it('cleans a stale Log in link for a signed-in user', () => {
    expect(
      decideNavigation('unlock', at('/unlock', '?action=sign-in'), state({ restoreTried: true })),
    ).toEqual({
      type: 'redirect',
      to: '/unlock',
    });
  });

  it('redirects an unlocked user to the remembered path, or /new', () => {
    expect(
      decideNavigation('unlock', at('/unlock'), state({ unlocked: true, rememberedPath: '/contacts' })),
    ).toEqual({ type: 'redirect', to: '/contacts' });
    expect(decideNavigation('unlock', at('/unlock'), state({ unlocked: true }))).toEqual({
      type: 'redirect',
      to: '/new',
    });
  });
});

describe('/share/{id} and /invite/{id}', () => {
  it('send a visitor with no account to /landing with the reason and the id', () => {
    expect(decideNavigation('file-share', at('/share/f-1', '', 'f-1'), state({ signedIn: false }))).toEqual({
      type: 'redirect',
      to: '/landing?reason=file-share&fileId=f-1',
    });
    expect(
      decideNavigation('invite-email', at('/invite/a@b.c', '', 'a@b.c'), state({ signedIn: false })),
    ).toEqual({ type: 'redirect', to: '/landing?reason=invite-email&fileId=a%40b.c' });
  });

  it('then need unlocked encryption like any auth-required route', () => {
    expect(decideNavigation('file-share', at('/share/f-1', '', 'f-1'), state())).toEqual({
      type: 'try-restore',
    });
    expect(
      decideNavigation('file-share', at('/share/f-1', '', 'f-1'), state({ restoreTried: true })),
    ).toEqual({
      type: 'redirect',
      to: '/unlock',
    });
    expect(decideNavigation('invite-email', at('/invite/x', '', 'x'), state({ unlocked: true }))).toEqual({
      type: 'allow',
    });
  });
});

describe('public routes', () => {
  it('are open to everyone', () => {
    expect(decideNavigation('public', at('/landing'), state({ signedIn: false }))).toEqual({ type: 'allow' });
  });
});

describe('encryption stops being ready', () => {
  const change = { wasUnlocked: true, isUnlocked: false, loggingOut: false };

  it('sends the user to /unlock from any other page', () => {
    expect(shouldRedirectToUnlock({ ...change, pathname: '/myfiles' })).toBe(true);
    expect(shouldRedirectToUnlock({ ...change, pathname: '/share/x' })).toBe(true);
  });

  it('not on /unlock or /landing, not during logout, not without a change', () => {
    expect(shouldRedirectToUnlock({ ...change, pathname: '/unlock' })).toBe(false);
    expect(shouldRedirectToUnlock({ ...change, pathname: '/landing' })).toBe(false);
    expect(shouldRedirectToUnlock({ ...change, pathname: '/myfiles', loggingOut: true })).toBe(false);
    expect(shouldRedirectToUnlock({ ...change, pathname: '/myfiles', wasUnlocked: false })).toBe(false);
    expect(shouldRedirectToUnlock({ ...change, pathname: '/myfiles', isUnlocked: true })).toBe(false);
  });
});
