import { sessionStorageKeys, type SessionStorageKey } from '@coffer/contracts';

/**
 * Typed access to the spec's session storage entries (section 3): `redirectAfterUnlock`,
 * `needsNewEncryption`, `encryptionInitialized`, `encryptionDerivedKey`. Storage can be blocked
 * (privacy settings, sandboxed frames); every call then degrades to "nothing stored" instead of
 * throwing into the navigation.
 */
export interface SessionFlags {
  get(key: SessionStorageKey): string | null;
  set(key: SessionStorageKey, value: string): void;
  remove(key: SessionStorageKey): void;
  /** A boolean entry: stored as the text `true`. */
  isSet(key: SessionStorageKey): boolean;
}

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
