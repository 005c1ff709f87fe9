import { DEFAULT_AFTER_UNLOCK_PATH } from '@coffer/contracts';
import { isSignInCallback } from '../auth/auth-session';
import { landingPath, paths } from './paths';

/**
 * The navigation rules of spec section 2 as pure functions: the route loaders feed them the state of
 * the session and carry out what they decide.
 */

/** How a route is guarded. */
export type RouteAccess =
  /** Landing, login, not-found: anyone. */
  | 'public'
  /** Signed in and encryption unlocked. */
  | 'auth'
  /** The unlock screen, also the identity provider's redirect target. */
  | 'unlock'
  /** /share/{id}: a signed-in account first (else landing with reason=file-share), then as 'auth'. */
  | 'file-share'
  /** /invite/{id}: a signed-in account first (else landing with reason=invite-email), then as 'auth'. */
  | 'invite-email';

export interface RouteLocation {
  pathname: string;
  search: string;
  hash?: string;
  /** The `:id` of /share/:id and /invite/:id. */
  id?: string;
}

export interface NavigationState {
  signedIn: boolean;
  unlocked: boolean;
  /** Restoring the keys from session storage was already tried during this navigation. */
  restoreTried: boolean;
  /** The session storage entry `redirectAfterUnlock`. */
  rememberedPath: string | null;
}

export type NavigationDecision =
  | { readonly type: 'allow' }
  | { readonly type: 'redirect'; readonly to: string }
  /** Try to restore the unlocked key from session storage, then decide again. */
  | { readonly type: 'try-restore' }
  /** /unlock?code=…&state=…: the identity provider sent the browser back; finish the sign-in. */
  | { readonly type: 'complete-sign-in' }
  /** The landing page's Log in / Create account: go to the identity provider. */
  | { readonly type: 'start-sign-in'; readonly mode: SignInMode };

export type SignInMode = 'sign-in' | 'sign-up';

/** Query parameter of /unlock that starts the sign-in redirect (the landing page's buttons link to it). */
export const SIGN_IN_ACTION_PARAM = 'action';

export function signInActionOf(search: string): SignInMode | null {
  const action = new URLSearchParams(search).get(SIGN_IN_ACTION_PARAM);
  return action === 'sign-in' || action === 'sign-up' ? action : null;
}

/**
 * Only paths inside this app may be returned to (no `//host` or `https://…`): the remembered path
 * also travels through the identity provider in the sign-in state.
 */
export function isSafeReturnPath(path: string | null | undefined): path is string {
  return typeof path === 'string' && path.startsWith('/') && !path.startsWith('//') && !path.includes('\\');
}

/** Where /unlock sends an unlocked user: the remembered path, or /new. */
export function afterUnlockPath(rememberedPath: string | null): string {
  if (!isSafeReturnPath(rememberedPath)) return DEFAULT_AFTER_UNLOCK_PATH;
  const pathname = rememberedPath.split(/[?#]/)[0];
  // Never back to the screens that lead here.
  if (pathname === paths.unlock || pathname === paths.landing || pathname === paths.login) {
    return DEFAULT_AFTER_UNLOCK_PATH;
  }
  return rememberedPath;
}

/**
 * "The current full path is remembered for redirecting after unlock, except for /unlock and
 * /landing." Public pages (/login, not-found) are not remembered either: after logging in nobody
 * wants to land on the logged-out page again.
 */
export function pathToRemember(access: RouteAccess, location: RouteLocation): string | null {
  if (access === 'public' || access === 'unlock') return null;
  return `${location.pathname}${location.search}${location.hash ?? ''}`;
}

/** The spec's rules for one navigation. */
export function decideNavigation(
  access: RouteAccess,
  location: RouteLocation,
  state: NavigationState,
): NavigationDecision {
  switch (access) {
    case 'public':
      return { type: 'allow' };

    case 'unlock': {
      if (isSignInCallback(location.search)) return { type: 'complete-sign-in' };
      const action = signInActionOf(location.search);
      if (!state.signedIn) {
        return action === null
          ? { type: 'redirect', to: paths.landing }
          : { type: 'start-sign-in', mode: action };
      }
      // Spec: visiting /unlock while already unlocked goes to the remembered path, or /new.
      if (state.unlocked) return { type: 'redirect', to: afterUnlockPath(state.rememberedPath) };
      if (!state.restoreTried) return { type: 'try-restore' };
      // Already signed in: a stale Log in link only needs a clean URL.
      if (action !== null) return { type: 'redirect', to: paths.unlock };
      return { type: 'allow' };
    }

    case 'file-share':
    case 'invite-email':
      if (!state.signedIn) return { type: 'redirect', to: landingPath(access, location.id) };
      return decideSignedIn(state);

    case 'auth':
      // Spec: no account and no sign-in in progress → /landing (a sign-in in progress only ever
      // returns to /unlock, handled above).
      if (!state.signedIn) return { type: 'redirect', to: paths.landing };
      return decideSignedIn(state);
  }
}

/** Spec: a signed-in user whose encryption is not unlocked goes to /unlock, after a restore attempt. */
function decideSignedIn(state: NavigationState): NavigationDecision {
  if (state.unlocked) return { type: 'allow' };
  if (!state.restoreTried) return { type: 'try-restore' };
  return { type: 'redirect', to: paths.unlock };
}

/**
 * "Whenever encryption stops being ready while the user is not on /unlock or /landing, the app
 * redirects to /unlock." Not during logout, which clears encryption on its way out.
 */
export function shouldRedirectToUnlock(input: {
  wasUnlocked: boolean;
  isUnlocked: boolean;
  pathname: string;
  loggingOut: boolean;
}): boolean {
  if (!input.wasUnlocked || input.isUnlocked || input.loggingOut) return false;
  return input.pathname !== paths.unlock && input.pathname !== paths.landing;
}
