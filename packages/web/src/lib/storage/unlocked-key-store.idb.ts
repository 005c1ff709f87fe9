import { idbRequest as promisify, idbSingleStore } from './idb';
import type { StoredUnlockedKey, UnlockedKeyStore } from './unlocked-key-store';

const DB_NAME = 'coffer-keys';
const DB_VERSION = 1;
const STORE = 'unlocked-keys';

/**
 * IndexedDB store of unlocked keys. A CryptoKey is structured-cloneable: a non-extractable key
 * survives the round trip and stays non-extractable (`exportKey` on it throws).
 */
export function createIndexedDbKeyStore(factory: IDBFactory = indexedDB): UnlockedKeyStore {
  const run = idbSingleStore(factory, {
    name: DB_NAME,
    version: DB_VERSION,
    store: STORE,
    keyPath: 'handle',
  });

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
