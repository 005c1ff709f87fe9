import { KeyRollbackError } from '@coffer/crypto';

/** The part of Web Storage the store uses (localStorage in the app, a map in tests). */
export type RevStorage = Pick<Storage, 'getItem' | 'setItem'>;

/**
 * The highest key record revision (`rev`, issue 29) this browser has opened or written, per user and
 * key id, kept across logouts in localStorage under `coffer.keyRev.<userId>.<keyId>`. A served record
 * with a lower revision is a copy wrapped under an earlier master unlock key (or an earlier recovery):
 * the server kept it and serves it back. What it cannot catch: a browser that never saw the newer
 * record (another device, a private window, cleared site data) has no mark and accepts the old copy
 * (docs/threat-model.md). Not secret: a revision number says nothing about the keys.
 */
export interface KeyRevStore {
  /** The mark of this key, 0 when there is none. */
  known(userId: string, keyId: string): number;
  /** @throws {KeyRollbackError} `rev` is lower than the mark. */
  assertNotRolledBack(userId: string, keyId: string, rev: number): void;
  /** Raises the mark to `rev`; never lowers it. */
  remember(userId: string, keyId: string, rev: number): void;
}

const PREFIX = 'coffer.keyRev.';

export function keyRevStorageKey(userId: string, keyId: string): string {
  return `${PREFIX}${userId}.${keyId}`;
}

export function createKeyRevStore(storage: RevStorage): KeyRevStore {
  const known = (userId: string, keyId: string): number => {
    let text: string | null = null;
    try {
      text = storage.getItem(keyRevStorageKey(userId, keyId));
    } catch {
      // Storage can be switched off by the browser: no mark, as in a fresh browser.
    }
    const value = text === null ? 0 : Number(text);
    return Number.isSafeInteger(value) && value > 0 ? value : 0;
  };
  return {
    known,
    assertNotRolledBack(userId, keyId, rev) {
      const mark = known(userId, keyId);
      if (rev < mark) throw new KeyRollbackError(rev, mark);
    },
    remember(userId, keyId, rev) {
      if (rev <= known(userId, keyId)) return;
      try {
        storage.setItem(keyRevStorageKey(userId, keyId), String(rev));
      } catch {
        // Full or switched off: the guard then lasts as long as nothing (same as a fresh browser).
      }
    },
  };
}

/** In memory: tests, and places without Web Storage. */
export function memoryRevStorage(): RevStorage {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => {
      items.set(key, value);
    },
  };
}

/** localStorage where there is one, else memory. */
export function defaultKeyRevStore(): KeyRevStore {
  // Reading `localStorage` throws where storage is switched off; it is absent outside browsers.
  let storage: RevStorage | undefined;
  try {
    storage = (globalThis as { localStorage?: RevStorage }).localStorage;
  } catch {
    storage = undefined;
  }
  return createKeyRevStore(storage ?? memoryRevStorage());
}
