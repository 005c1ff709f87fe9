import { createContext, useContext, useSyncExternalStore } from 'react';
import type { AuthSnapshot } from '../lib/auth/auth-session';
import type { EncryptionState } from '../lib/encryption/encryption-session';
import { getAppSession, type AppSession } from './app-session';

/** The tab's session for the React tree; without a provider, the tab's default session. */
export const AppSessionContext = createContext<AppSession | null>(null);

export function useAppSession(): AppSession {
  return useContext(AppSessionContext) ?? getAppSession();
}

/** The login session's state (re-renders when the user signs in or out). */
export function useAuthSnapshot(): AuthSnapshot {
  const { auth } = useAppSession();
  return useSyncExternalStore(auth.subscribe, auth.getSnapshot, auth.getSnapshot);
}

/**
 * The encryption session's state. File screens read the keys from it:
 * `const state = useEncryptionState(); if (state.status === 'unlocked') state.keys.privateKey …`,
 * or outside React `getAppSession().encryption.requireKeys()`.
 */
export function useEncryptionState(): EncryptionState {
  const { encryption } = useAppSession();
  return useSyncExternalStore(encryption.subscribe, encryption.getSnapshot, encryption.getSnapshot);
}

/** Whether uploads, downloads or other registered operations are running. */
export function useOperationsActive(): boolean {
  const { operations } = useAppSession();
  useSyncExternalStore(operations.subscribe, operations.getSnapshot, operations.getSnapshot);
  return operations.hasActive();
}
