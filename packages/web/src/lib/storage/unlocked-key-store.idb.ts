import type { StoredUnlockedKey, UnlockedKeyStore } from './unlocked-key-store';

const DB_NAME = 'coffer-keys';
const DB_VERSION = 1;
const STORE = 'unlocked-keys';

function promisify<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    request.onsuccess = () => {
      resolve(request.result);
    };
    request.onerror = () => {
      reject(request.error ?? new Error('IndexedDB request failed'));
    };
  });
}

function transactionDone(tx: IDBTransaction): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => {
      resolve();
    };
    tx.onabort = () => {
      reject(tx.error ?? new Error('IndexedDB transaction aborted'));
    };
    tx.onerror = () => {
      reject(tx.error ?? new Error('IndexedDB transaction failed'));
    };
  });
}

function openDatabase(factory: IDBFactory): Promise<IDBDatabase> {
  const request = factory.open(DB_NAME, DB_VERSION);
  request.onupgradeneeded = () => {
    const db = request.result;
    if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE, { keyPath: 'handle' });
  };
  return promisify(request);
}

/**
 * IndexedDB store of unlocked keys. A CryptoKey is structured-cloneable: a non-extractable key
 * survives the round trip and stays non-extractable (`exportKey` on it throws).
 */
export function createIndexedDbKeyStore(factory: IDBFactory = indexedDB): UnlockedKeyStore {
  let dbPromise: Promise<IDBDatabase> | null = null;
  const db = (): Promise<IDBDatabase> => {
    dbPromise ??= openDatabase(factory).then((opened) => {
      // Another tab deleting or upgrading the database: reopen on the next call.
      opened.onversionchange = () => {
        opened.close();
        dbPromise = null;
      };
      return opened;
    });
    return dbPromise;
  };

  async function run<T>(
    mode: IDBTransactionMode,
    work: (store: IDBObjectStore) => Promise<T> | T,
  ): Promise<T> {
    const tx = (await db()).transaction(STORE, mode);
    const done = transactionDone(tx);
    const result = await work(tx.objectStore(STORE));
    await done;
    return result;
  }

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
