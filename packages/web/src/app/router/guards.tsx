import type { ReactElement } from 'react';
import { Outlet } from 'react-router';
import type { LandingReason } from '@coffer/contracts';

/**
 * Wrapper route of every auth-required screen (spec section 2, Navigation rules). The rules run in
 * its loader (`guardLoader('auth')` in `routes.tsx`, see `loaders.ts` and `navigation-rules.ts`):
 * remember the path, /landing without an account, restore the keys or /unlock while locked.
 */
export function RequireAuth(): ReactElement {
  return <Outlet />;
}

/**
 * Wrapper route of /share/:id and /invite/:id, which check for a signed-in account first: with none
 * their loader redirects to /landing?reason={reason}&fileId={id}.
 */
export function RequireAccount({ reason }: { reason: LandingReason }): ReactElement {
  return <Outlet context={{ reason }} />;
}
