import { useCallback } from 'react';
import { useLocation } from 'react-router';
import { overlay } from '../lib/overlay';
import { useAppSession } from './session-context';

/**
 * Logs the user out (spec section 4): aborts operations, clears encryption, the user, the caches,
 * session and local storage and the identity cache, then leaves through the identity provider's
 * end-session page to /landing, or to /login when called from /unlock.
 */
export function useLogout(): () => void {
  const session = useAppSession();
  const { pathname } = useLocation();
  return useCallback(() => {
    const release = overlay.show('Logging out…');
    // The page normally unloads first (the provider's end-session page); if not, do not stay covered.
    void session.logout({ from: pathname }).finally(() => {
      setTimeout(release, 5000);
    });
  }, [session, pathname]);
}
