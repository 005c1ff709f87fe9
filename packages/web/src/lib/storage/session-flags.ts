import { sessionStorageKeys, type SessionStorageKey } from '@coffer/contracts';

/**
 * Typed access to the spec's session storage entries (section 3): `redirectAfterUnlock`,
 * `needsNewEncryption`, `encryptionInitialized`, `encryptionDerivedKey`. Storage can be blocked
 * (privacy settings, sandboxed frames); every call then degrades to "nothing stored" instead of
 * throwing into the navigation.
 */
export interface SessionFlags {
  get(key: FlagKey): string | null;
  set(key: FlagKey, value: string): void;
  remove(key: FlagKey): void;
  /** A boolean entry: stored as the text `true`. */
  isSet(key: FlagKey): boolean;
}

/**
 * Coffer's own entry beside the spec's: set when a session ended without the person logging out
 * (a token that could not be renewed), so /landing can say why (issue 15, point 6).
 */
export const SESSION_ENDED_FLAG = 'sessionEnded';

/**
 * The transfers a logout cancelled, as a JSON list of the lines to show ('2 uploads cancelled'),
 * kept across the logout so /landing can say it (issue 15, point 13).
 */
export const TRANSFERS_CANCELLED_FLAG = 'transfersCancelled';

type FlagKey = SessionStorageKey | typeof SESSION_ENDED_FLAG | typeof TRANSFERS_CANCELLED_FLAG;

export function createSessionFlags(storage: () => Storage | null): SessionFlags {
  const flags: SessionFlags = {
    get(key) {
      try {
        return storage()?.getItem(key) ?? null;
      } catch {
        return null;
      }
    },
    set(key, value) {
      try {
        storage()?.setItem(key, value);
      } catch {
        // Full or blocked storage: the session still works, it just will not survive a reload.
      }
    },
    remove(key) {
      try {
        storage()?.removeItem(key);
      } catch {
        // Blocked storage holds nothing to remove.
      }
    },
    isSet(key) {
      return flags.get(key) === 'true';
    },
  };
  return flags;
}

/** The browser's session storage (per tab, survives reloads and the sign-in redirect). */
export const sessionFlags: SessionFlags = createSessionFlags(() => {
  try {
    return globalThis.sessionStorage;
  } catch {
    return null;
  }
});

export { sessionStorageKeys };
