import { sessionStorageKeys } from '@coffer/contracts';
import { redirect, type LoaderFunctionArgs, type ShouldRevalidateFunction } from 'react-router';
import { snackbar } from '../../lib/snackbar';
import { getAppSession, type AppSession } from '../../session/app-session';
import {
  decideNavigation,
  isSafeReturnPath,
  pathToRemember,
  type NavigationState,
  type RouteAccess,
  type RouteLocation,
} from '../../lib/navigation/navigation-rules';
import { paths } from '../../lib/navigation/paths';
import { track } from '../../lib/analytics';

/** Shown when the identity provider's answer cannot be used (cancelled, expired, tampered). */
export const SIGN_IN_FAILED_MESSAGE = 'Sign-in did not complete. Please try again.';

/** The guards re-run on every navigation, so the remembered path and the redirects stay current. */
export const alwaysRevalidate: ShouldRevalidateFunction = () => true;

/** A navigation that never settles: the page is leaving for the identity provider. */
function leavingPage(): Promise<never> {
  // Back from the provider through the back/forward cache: the page would wait forever; reload it.
  window.addEventListener(
    'pageshow',
    (event) => {
      if (event.persisted) window.location.reload();
    },
    { once: true },
  );
  return new Promise<never>(() => undefined);
}

function stateOf(session: AppSession, restoreTried: boolean): NavigationState {
  return {
    signedIn: session.auth.getSnapshot().status === 'signed-in',
    unlocked: session.encryption.isUnlocked(),
    restoreTried,
    rememberedPath: session.flags.get(sessionStorageKeys.redirectAfterUnlock),
  };
}

/**
 * Carries out the navigation rules (`navigation-rules.ts`) for a route: remembers the path, waits for
 * the login session, restores the keys when it may, completes or starts the sign-in redirect, and
 * answers with a redirect or lets the route render.
 */
export async function guardNavigation(
  access: RouteAccess,
  url: URL,
  id: string | undefined,
  session: AppSession = getAppSession(),
): Promise<Response | null> {
  const location: RouteLocation = { pathname: url.pathname, search: url.search, hash: url.hash, id };
  const remembered = pathToRemember(access, location);
  if (remembered !== null) session.flags.set(sessionStorageKeys.redirectAfterUnlock, remembered);
  if (access === 'public') return null;

  await session.auth.ready();
  let restoreTried = false;
  for (;;) {
    const decision = decideNavigation(access, location, stateOf(session, restoreTried));
    switch (decision.type) {
      case 'allow':
        return null;
      case 'redirect':
        return redirect(decision.to);
      case 'try-restore':
        await session.encryption.restore();
        restoreTried = true;
        continue;
      case 'complete-sign-in':
        try {
          const { returnPath } = await session.auth.completeSignIn(url.href);
          // The remembered path normally waits in session storage; the sign-in state is the backup
          // (e.g. a sign-up finished in another tab).
          const current = session.flags.get(sessionStorageKeys.redirectAfterUnlock);
          if (current === null && isSafeReturnPath(returnPath)) {
            session.flags.set(sessionStorageKeys.redirectAfterUnlock, returnPath);
          }
        } catch (error) {
          console.warn('Completing the sign-in failed', error);
          snackbar.danger(SIGN_IN_FAILED_MESSAGE);
          return redirect(paths.landing);
        }
        // Drops ?code=&state= from the address bar and history.
        return redirect(paths.unlock);
      case 'start-sign-in': {
        const returnPath = session.flags.get(sessionStorageKeys.redirectAfterUnlock);
        if (decision.mode === 'sign-up') track('sign_up');
        await (decision.mode === 'sign-up'
          ? session.auth.signUp(returnPath)
          : session.auth.signIn(returnPath));
        return leavingPage();
      }
    }
  }
}

/** A route loader for routes guarded as `access`. */
export function guardLoader(access: RouteAccess) {
  return ({ request, params }: LoaderFunctionArgs): Promise<Response | null> =>
    guardNavigation(access, new URL(request.url), params.id);
}
