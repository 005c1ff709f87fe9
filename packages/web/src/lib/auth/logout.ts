import type { EncryptionSession } from '../encryption/encryption-session';
import type { AuthSession } from './auth-session';
import type { OperationRegistry } from './operations';

/** Where logout ends (spec section 2): /login from the unlock screen, /landing from anywhere else. */
export function logoutTarget(pathname: string): '/login' | '/landing' {
  return pathname === '/unlock' ? '/login' : '/landing';
}

export interface LogoutDeps {
  operations: Pick<OperationRegistry, 'abortAll'>;
  encryption: Pick<EncryptionSession, 'clear'>;
  auth: Pick<AuthSession, 'forgetUser' | 'endSession'>;
  /** Clears in-memory caches: the query cache (files, contacts, subscription), anything registered. */
  clearCaches: () => void;
  /** The web storages to empty: session and local storage. */
  storages: () => readonly (Storage | null)[];
  /** Full-page navigation, for a logout that does not visit the provider. */
  navigate: (path: string) => void;
}

export interface LogoutOptions {
  targetPath: string;
  /**
   * End the identity provider's session too (RP-initiated logout). Off when another tab already
   * logged out, or when the provider cannot be reached.
   */
  endProviderSession?: boolean;
  /** Runs once the storages are emptied, to put back what must outlive the session. */
  afterStoragesCleared?: () => void;
}

/**
 * Spec section 4, Logout: abort ongoing operations; clear encryption (every stored unlocked key of
 * this browser), the user and the caches; empty session and local storage (which holds the identity
 * cache); then leave through the provider's end-session endpoint, or straight to the target.
 * Each step runs even if an earlier one failed: a logout must not leave half a session behind.
 */
export async function performLogout(deps: LogoutDeps, options: LogoutOptions): Promise<void> {
  const steps: (() => Promise<unknown> | undefined)[] = [
    () => deps.operations.abortAll(),
    () => deps.encryption.clear({ everywhere: true }),
    () => {
      deps.clearCaches();
      return undefined;
    },
  ];
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      console.warn('A logout step failed', error);
    }
  }
  let idToken: string | null = null;
  try {
    ({ idToken } = await deps.auth.forgetUser());
  } catch (error) {
    console.warn('Forgetting the signed-in user failed', error);
  }
  for (const storage of deps.storages()) {
    try {
      storage?.clear();
    } catch {
      // Blocked storage holds nothing.
    }
  }
  options.afterStoragesCleared?.();
  if (options.endProviderSession === false) {
    deps.navigate(options.targetPath);
    return;
  }
  try {
    await deps.auth.endSession(idToken, options.targetPath);
  } catch (error) {
    console.warn('Ending the provider session failed', error);
    deps.navigate(options.targetPath);
  }
}
