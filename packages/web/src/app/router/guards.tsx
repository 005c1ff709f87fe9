import type { ReactElement } from 'react';
import { Navigate, Outlet, useParams } from 'react-router';
import { useHasAccount } from '../session/use-has-account';
import { landingPath, type LandingReason } from './paths';

/**
 * Wrapper route of every auth-required screen (spec section 2, Navigation rules).
 *
 * Extension point for the auth issue. It will:
 * - remember the full path for after unlock (except /unlock and /landing);
 * - send a visitor with no account and no sign-in in progress to /landing;
 * - try to restore the keys from session storage, else send a locked user to /unlock.
 * Redirects that need no rendering can move into a `loader` on this route in `routes.tsx`.
 * Today it lets every request through.
 */
export function RequireAuth(): ReactElement {
  return <Outlet />;
}

/**
 * Wrapper route of /share/:id and /invite/:id, which check for a signed-in account first: with none
 * they redirect to /landing?reason={reason}&fileId={id}.
 */
export function RequireAccount({ reason }: { reason: LandingReason }): ReactElement {
  const hasAccount = useHasAccount();
  const { id } = useParams();
  if (!hasAccount) return <Navigate to={landingPath(reason, id)} replace />;
  return <Outlet />;
}
