import { createContext, useContext } from 'react';

/** The signed-in person, from the identity provider's ID token claims (spec section 3, User). */
export interface SessionUser {
  /** The identity provider's subject. */
  id: string;
  name: string;
  /** Primary email (first of `emails`). */
  email: string | null;
  /** Avatar colour derived from the email. */
  color: string;
  image: string | null;
  idTokenClaims: { idp: string | null; emails: string[]; country: string | null };
}

export const CurrentUserContext = createContext<SessionUser | null>(null);

/** The signed-in user, or null before sign-in. Provided by the session providers. */
export function useCurrentUser(): SessionUser | null {
  return useContext(CurrentUserContext);
}
