import { createContext, useContext, type ReactElement, type ReactNode } from 'react';
import { sessionStorageKeys } from '@coffer/contracts';
import { useAuthSnapshot, useEncryptionState } from '../../session/session-context';

/** @deprecated Use `sessionStorageKeys.encryptionInitialized` from `@coffer/contracts`. */
export const ENCRYPTION_INITIALIZED_FLAG = sessionStorageKeys.encryptionInitialized;

/** `undefined`: decide from the session. A boolean: a route forces the shell on or off. */
const ShellVisibleContext = createContext<boolean | undefined>(undefined);

/** Forces the sidebar and top bar on or off for the routes below it (tests, previews). */
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
 * Whether the app layout shows the sidebar and the top bar. The spec: "The sidebar and top bar are
 * shown only when the user is logged in and encryption is initialised".
 */
export function useShellVisible(): boolean {
  const forced = useContext(ShellVisibleContext);
  const signedIn = useAuthSnapshot().status === 'signed-in';
  const unlocked = useEncryptionState().status === 'unlocked';
  return forced ?? (signedIn && unlocked);
}
