import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../router/paths';

/**
 * Logs the user out.
 * Extension point: the auth issue makes this abort transfers, clear the encryption session,
 * caches, session and local storage and the identity provider's cache (spec section 4, Logout)
 * before redirecting. Today there is no session, so it only navigates.
 */
export function useLogout(): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    void navigate(paths.landing, { replace: true });
  }, [navigate]);
}
