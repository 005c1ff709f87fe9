import { KeyRollbackError } from '@coffer/crypto';
import { describe, expect, it } from 'vitest';
import { createKeyRevStore, keyRevStorageKey, memoryRevStorage } from './key-rev.store';

describe('key revision store (rollback guard)', () => {
  it('remembers the highest revision per user and key, under coffer.keyRev.<userId>.<keyId>', () => {
    const storage = memoryRevStorage();
    const store = createKeyRevStore(storage);
    expect(store.known('u1', 'k1')).toBe(0);
    store.remember('u1', 'k1', 2);
    store.remember('u1', 'k1', 1);
    expect(store.known('u1', 'k1')).toBe(2);
    expect(storage.getItem(keyRevStorageKey('u1', 'k1'))).toBe('2');
    expect(keyRevStorageKey('u1', 'k1')).toBe('coffer.keyRev.u1.k1');
    expect(store.known('u1', 'k2')).toBe(0);
    expect(store.known('u2', 'k1')).toBe(0);
  });

  it('refuses a served record older than the mark with KeyRollbackError; equal or newer passes', () => {
    const store = createKeyRevStore(memoryRevStorage());
    store.remember('u1', 'k1', 3);
    expect(() => {
      store.assertNotRolledBack('u1', 'k1', 2);
    }).toThrow(KeyRollbackError);
    // A PBKDF2 record (rev 0) after an Argon2id one was seen: the copy from before the upgrade.
    expect(() => {
      store.assertNotRolledBack('u1', 'k1', 0);
    }).toThrow(KeyRollbackError);
    expect(() => {
      store.assertNotRolledBack('u1', 'k1', 3);
      store.assertNotRolledBack('u1', 'k1', 4);
    }).not.toThrow();
  });

  it('a fresh browser (no mark) accepts any revision: what the guard cannot catch', () => {
    const store = createKeyRevStore(memoryRevStorage());
    expect(() => {
      store.assertNotRolledBack('u1', 'k1', 0);
    }).not.toThrow();
  });

  it('ignores garbage in storage and survives storage that throws', () => {
    const storage = memoryRevStorage();
    storage.setItem(keyRevStorageKey('u1', 'k1'), 'not a number');
    expect(createKeyRevStore(storage).known('u1', 'k1')).toBe(0);
    const broken = createKeyRevStore({
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    });
    expect(broken.known('u1', 'k1')).toBe(0);
    expect(() => {
      broken.remember('u1', 'k1', 1);
    }).not.toThrow();
  });
});
