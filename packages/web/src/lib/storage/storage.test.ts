import { sessionStorageKeys } from '@coffer/contracts';
import { describe, expect, it } from 'vitest';
import { MemoryStorage } from '../encryption/testing/fake-keys-server';
import { setFlashMessage, takeFlashMessage } from './flash-message';
import { createSessionFlags } from './session-flags';
import { createMemoryKeyStore, randomHandle } from './unlocked-key-store';

describe('session flags', () => {
  it('reads and writes the spec’s session storage entries', () => {
    const storage = new MemoryStorage();
    const flags = createSessionFlags(() => storage);
    flags.set(sessionStorageKeys.needsNewEncryption, 'true');
    expect(flags.isSet(sessionStorageKeys.needsNewEncryption)).toBe(true);
    expect(storage.getItem('needsNewEncryption')).toBe('true');
    flags.remove(sessionStorageKeys.needsNewEncryption);
    expect(flags.get(sessionStorageKeys.needsNewEncryption)).toBeNull();
  });

  it('degrades to "nothing stored" when storage is blocked', () => {
    const flags = createSessionFlags(() => {
      throw new Error('SecurityError');
    });
    expect(() => {
      flags.set(sessionStorageKeys.redirectAfterUnlock, '/x');
    }).not.toThrow();
    expect(flags.get(sessionStorageKeys.redirectAfterUnlock)).toBeNull();
  });
});

describe('flash message', () => {
  it('is shown once after the reload', () => {
    const storage = new MemoryStorage();
    setFlashMessage({ message: 'Done', color: 'success' }, storage);
    expect(takeFlashMessage(storage)).toEqual({ message: 'Done', color: 'success' });
    expect(takeFlashMessage(storage)).toBeNull();
  });

  it('ignores garbage', () => {
    const storage = new MemoryStorage();
    storage.setItem('coffer.flash', '{not json');
    expect(takeFlashMessage(storage)).toBeNull();
  });
});

describe('memory key store', () => {
  it('expires entries unused since a cut-off', async () => {
    const store = createMemoryKeyStore();
    const key = {} as CryptoKey;
    const base = { privateKey: key, publicKey: key, publicKeyB64: '', keyVersion: 'k', owner: 'u' };
    await store.put({ ...base, handle: 'old', lastUsedAt: 1 });
    await store.put({ ...base, handle: 'new', lastUsedAt: 100 });
    await store.touch('old', 50);
    await store.deleteUnusedSince(60);
    await expect(store.get('old')).resolves.toBeUndefined();
    await expect(store.get('new')).resolves.toBeDefined();
  });

  it('makes unguessable handles', () => {
    expect(randomHandle()).toMatch(/^[0-9a-f]{32}$/);
    expect(randomHandle()).not.toBe(randomHandle());
  });
});
