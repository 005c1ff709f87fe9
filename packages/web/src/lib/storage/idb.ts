/**
 * The small IndexedDB helpers every store of the app shares (unlocked keys, pin high-water marks,
 * resumable uploads): promises for requests and transactions, and a connection opened once and
 * reopened after another tab upgrades or deletes the database.
 */

export function idbRequest<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    request.onsuccess = () => {
      resolve(request.result);
    };
    request.onerror = () => {
      reject(request.error ?? new Error('IndexedDB request failed'));
    };
  });
}

export function idbTransactionDone(tx: IDBTransaction): Promise<void> {
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

export interface IdbDatabaseSpec {
  readonly name: string;
  readonly version: number;
  /** Object store names and their key paths, created when missing. */
  readonly stores: Readonly<Record<string, string>>;
}

/** A lazily opened connection: the first call opens it, later calls share it. */
export type IdbConnection = () => Promise<IDBDatabase>;

export function idbConnection(factory: IDBFactory, spec: IdbDatabaseSpec): IdbConnection {
  let dbPromise: Promise<IDBDatabase> | null = null;
  const open = (): Promise<IDBDatabase> => {
    const request = factory.open(spec.name, spec.version);
    request.onupgradeneeded = () => {
      const db = request.result;
      for (const [store, keyPath] of Object.entries(spec.stores)) {
        if (!db.objectStoreNames.contains(store)) db.createObjectStore(store, { keyPath });
      }
    };
    return idbRequest(request);
  };
  return () => {
    dbPromise ??= open().then(
      (opened) => {
        // Another tab deleting or upgrading the database: reopen on the next call.
        opened.onversionchange = () => {
          opened.close();
          dbPromise = null;
        };
        return opened;
      },
      (error: unknown) => {
        dbPromise = null;
        throw error;
      },
    );
    return dbPromise;
  };
}

/** Runs `work` in one transaction on `store` and resolves once the transaction has committed. */
export async function idbRun<T>(
  db: IdbConnection,
  store: string,
  mode: IDBTransactionMode,
  work: (objects: IDBObjectStore) => Promise<T> | T,
): Promise<T> {
  const tx = (await db()).transaction(store, mode);
  const done = idbTransactionDone(tx);
  // When `work` fails the transaction aborts and `done` rejects too, unawaited: not a second error.
  done.catch(() => undefined);
  const result = await work(tx.objectStore(store));
  await done;
  return result;
}

/** Runs `work` in one transaction on a database's one store, as {@link idbRun} does. */
export type IdbStoreRun = <T>(
  mode: IDBTransactionMode,
  work: (objects: IDBObjectStore) => Promise<T> | T,
) => Promise<T>;

/** A database of one object store (unlocked keys, upload records), opened on first use. */
export function idbSingleStore(
  factory: IDBFactory,
  spec: { readonly name: string; readonly version: number; readonly store: string; readonly keyPath: string },
): IdbStoreRun {
  const db = idbConnection(factory, {
    name: spec.name,
    version: spec.version,
    stores: { [spec.store]: spec.keyPath },
  });
  return (mode, work) => idbRun(db, spec.store, mode, work);
}
