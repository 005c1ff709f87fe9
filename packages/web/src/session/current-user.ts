import { createContext, useContext } from 'react';
import type { SessionUser } from '../lib/auth/session-user';

/** The signed-in person, from the identity provider's ID token claims (spec section 3, User). */
export type { SessionUser } from '../lib/auth/session-user';

/** Provided by `AppProviders` from the login session (the ID token's claims). */
export const CurrentUserContext = createContext<SessionUser | null>(null);

/** The signed-in user, or null before sign-in. Provided by the session providers. */
export function useCurrentUser(): SessionUser | null {
  return useContext(CurrentUserContext);
}
