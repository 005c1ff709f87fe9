import { createContext, useContext, type ReactElement, type ReactNode } from 'react';

/**
 * The spec: "The sidebar and top bar are shown only when the user is logged in and encryption is
 * initialised". Until the auth and encryption session exist, the session storage flag that the
 * encryption session will set (`encryptionInitialized`) stands in for both.
 */
export const ENCRYPTION_INITIALIZED_FLAG = 'encryptionInitialized';

function readSessionFlag(): boolean {
  try {
    return globalThis.sessionStorage.getItem(ENCRYPTION_INITIALIZED_FLAG) === 'true';
  } catch {
    // Storage can be blocked (privacy settings): then there is no session either.
    return false;
  }
}

/** `undefined`: decide from the session. A boolean: a route forces the shell on or off. */
const ShellVisibleContext = createContext<boolean | undefined>(undefined);

/** Forces the sidebar and top bar on or off for the routes below it. */
export function ShellVisibleProvider({
  visible,
  children,
}: {
  visible: boolean;
  children: ReactNode;
}): ReactElement {
  return <ShellVisibleContext value={visible}>{children}</ShellVisibleContext>;
}

/**
 * Whether the app layout shows the sidebar and the top bar.
 * Extension point: the auth/encryption issue replaces `readSessionFlag()` with the real session
 * state (signed in and keys unlocked) and removes the forcing provider in `routes.tsx`.
 */
export function useShellVisible(): boolean {
  const forced = useContext(ShellVisibleContext);
  return forced ?? readSessionFlag();
}
