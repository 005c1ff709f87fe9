import { idbRequest as promisify, idbSingleStore } from './idb';
import type { StoredUnlockedKey, UnlockedKeyStore } from './unlocked-key-store';

const DATABASE = { name: 'coffer-keys', version: 1, store: 'unlocked-keys', keyPath: 'handle' };

/**
 * IndexedDB store of unlocked keys. A CryptoKey is structured-cloneable: a non-extractable key
 * survives the round trip and stays non-extractable (`exportKey` on it throws).
 */
export function createIndexedDbKeyStore(factory: IDBFactory = indexedDB): UnlockedKeyStore {
  const run = idbSingleStore(factory, DATABASE);

  return {
    get: (handle) =>
      run('readonly', (store) => promisify(store.get(handle) as IDBRequest<StoredUnlockedKey | undefined>)),
    put: (entry) =>
      run('readwrite', async (store) => {
        await promisify(store.put(entry));
      }),
    touch: (handle, lastUsedAt) =>
      run('readwrite', async (store) => {
        const entry = (await promisify(store.get(handle))) as StoredUnlockedKey | undefined;
        if (entry !== undefined) await promisify(store.put({ ...entry, lastUsedAt }));
      }),
    delete: (handle) =>
      run('readwrite', async (store) => {
        await promisify(store.delete(handle));
      }),
    deleteUnusedSince: (cutoff) =>
      run('readwrite', async (store) => {
        const all = (await promisify(store.getAll())) as StoredUnlockedKey[];
        for (const entry of all) {
          if (entry.lastUsedAt < cutoff) await promisify(store.delete(entry.handle));
        }
      }),
    deleteAll: () =>
      run('readwrite', async (store) => {
        await promisify(store.clear());
      }),
  };
}
