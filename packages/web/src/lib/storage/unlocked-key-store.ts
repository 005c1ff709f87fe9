import type { UnlockedKeys } from '../encryption/unlocked-keys';

/**
 * Where an unlocked private key waits across page reloads (ARCHITECTURE.md, "Unlocked state across
 * reloads"). The key is a NON-extractable CryptoKey: the store holds a reference that WebCrypto can
 * use, never key bytes. Session storage keeps only the random handle of the entry, so the key is
 * reachable from the tab that unlocked it and dies with the tab's session.
 *
 * The browser implementation is IndexedDB (`unlocked-key-store.idb.ts`); tests use the in-memory one.
 */
export interface StoredUnlockedKey extends UnlockedKeys {
  /** Random, unguessable id of the entry; the only thing kept in session storage. */
  readonly handle: string;
  /** Subject of the signed-in user that unlocked it; another user never gets it back. */
  readonly owner: string | null;
  /** Epoch milliseconds of the last use; an entry unused for 12 hours expires. */
  readonly lastUsedAt: number;
}

export interface UnlockedKeyStore {
  get(handle: string): Promise<StoredUnlockedKey | undefined>;
  put(entry: StoredUnlockedKey): Promise<void>;
  /** Records a use of the entry (does nothing when it is gone). */
  touch(handle: string, lastUsedAt: number): Promise<void>;
  delete(handle: string): Promise<void>;
  /** Deletes every entry not used since `cutoff` (entries of closed tabs, other sessions). */
  deleteUnusedSince(cutoff: number): Promise<void>;
  /** Deletes every entry (logout: no key of any tab stays in this browser). */
  deleteAll(): Promise<void>;
}

/** An unlocked key unused for this long is deleted instead of restored. */
export const UNLOCKED_KEY_IDLE_TIMEOUT_MS = 12 * 60 * 60 * 1000;

/** In-memory store: for unit tests, and the fallback when IndexedDB is unavailable. */
export function createMemoryKeyStore(): UnlockedKeyStore & { readonly size: number } {
  const entries = new Map<string, StoredUnlockedKey>();
  return {
    get size() {
      return entries.size;
    },
    get(handle) {
      return Promise.resolve(entries.get(handle));
    },
    put(entry) {
      entries.set(entry.handle, entry);
      return Promise.resolve();
    },
    touch(handle, lastUsedAt) {
      const entry = entries.get(handle);
      if (entry !== undefined) entries.set(handle, { ...entry, lastUsedAt });
      return Promise.resolve();
    },
    delete(handle) {
      entries.delete(handle);
      return Promise.resolve();
    },
    deleteUnusedSince(cutoff) {
      for (const [handle, entry] of entries) {
        if (entry.lastUsedAt < cutoff) entries.delete(handle);
      }
      return Promise.resolve();
    },
    deleteAll() {
      entries.clear();
      return Promise.resolve();
    },
  };
}

/** A fresh random handle: 128 bits, hex. */
export function randomHandle(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
