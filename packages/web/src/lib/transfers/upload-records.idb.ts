import { idbConnection, idbRequest, idbRun } from '../storage/idb';
import type { UploadRecord, UploadRecordStore } from './upload-records';

/**
 * Its own database: logout deletes the unlocked keys (`coffer-keys`), and an upload must stay
 * resumable after signing in again. A FileSystemFileHandle is structured-cloneable, so it is stored
 * as is; the browser asks for permission again before it can be read.
 */
const DB_NAME = 'coffer-uploads';
const DB_VERSION = 1;
const STORE = 'multipart-uploads';

export function createIndexedDbUploadRecords(factory: IDBFactory = indexedDB): UploadRecordStore {
  const db = idbConnection(factory, { name: DB_NAME, version: DB_VERSION, stores: { [STORE]: 'uploadId' } });
  const run = <T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => Promise<T> | T): Promise<T> =>
    idbRun(db, STORE, mode, work);
  return {
    get: (uploadId) =>
      run('readonly', (store) => idbRequest(store.get(uploadId) as IDBRequest<UploadRecord | undefined>)),
    all: () => run('readonly', (store) => idbRequest(store.getAll() as IDBRequest<UploadRecord[]>)),
    put: (record) =>
      run('readwrite', async (store) => {
        await idbRequest(store.put(record));
      }),
    addChunkHash: (uploadId, index, sha256Hex) =>
      // Read and write in one transaction: the two chunks in flight may finish at the same time.
      run('readwrite', async (store) => {
        const record = (await idbRequest(store.get(uploadId))) as UploadRecord | undefined;
        if (record === undefined) return;
        await idbRequest(
          store.put({ ...record, chunkSha256: { ...record.chunkSha256, [index]: sha256Hex } }),
        );
      }),
    delete: (uploadId) =>
      run('readwrite', async (store) => {
        await idbRequest(store.delete(uploadId));
      }),
  };
}

let shared: UploadRecordStore | null | undefined;

/** The browser's store, or null where there is no IndexedDB (tests, some private windows). */
export function browserUploadRecords(): UploadRecordStore | null {
  shared ??= typeof indexedDB === 'undefined' ? null : createIndexedDbUploadRecords();
  return shared;
}
