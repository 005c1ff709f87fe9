import { idbRequest, idbSingleStore } from '../storage/idb';
import {
  forgetIdleUploadRecords,
  withChunkHash,
  type UploadRecord,
  type UploadRecordStore,
} from './upload-records';

/**
 * Its own database: logout deletes the unlocked keys (`coffer-keys`), and an upload must stay
 * resumable after signing in again. A FileSystemFileHandle is structured-cloneable, so it is stored
 * as is; the browser asks for permission again before it can be read.
 */
const DATABASE = { name: 'coffer-uploads', version: 1, store: 'multipart-uploads', keyPath: 'uploadId' };

export function createIndexedDbUploadRecords(factory: IDBFactory = indexedDB): UploadRecordStore {
  const run = idbSingleStore(factory, DATABASE);
  return {
    get: (uploadId) =>
      run('readonly', (store) => idbRequest(store.get(uploadId) as IDBRequest<UploadRecord | undefined>)),
    all: () => run('readonly', (store) => idbRequest(store.getAll() as IDBRequest<UploadRecord[]>)),
    put: (record) =>
      run('readwrite', async (store) => {
        await idbRequest(store.put(record));
      }),
    addChunkHash: (uploadId, index, sha256Hex, at = Date.now()) =>
      // Read and write in one transaction: the two chunks in flight may finish at the same time.
      run('readwrite', async (store) => {
        const record = (await idbRequest(store.get(uploadId))) as UploadRecord | undefined;
        if (record === undefined) return;
        await idbRequest(store.put(withChunkHash(record, index, sha256Hex, at)));
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
  shared ??= typeof indexedDB === 'undefined' ? null : expiringUploadRecords(createIndexedDbUploadRecords());
  return shared;
}

/**
 * `store`, whose idle records are deleted once, when the app first uses it (at startup: the
 * transfer manager opens it), before anything reads it. A failed sweep only leaves them for the
 * next start.
 */
export function expiringUploadRecords(
  store: UploadRecordStore,
  now: () => number = Date.now,
): UploadRecordStore {
  const swept = forgetIdleUploadRecords(store, now()).catch((error: unknown) => {
    console.warn('Resumable upload records: deleting idle records failed', error);
  });
  return {
    get: async (uploadId) => {
      await swept;
      return store.get(uploadId);
    },
    all: async () => {
      await swept;
      return store.all();
    },
    put: async (record) => {
      await swept;
      return store.put(record);
    },
    addChunkHash: async (uploadId, index, sha256Hex, at) => {
      await swept;
      return store.addChunkHash(uploadId, index, sha256Hex, at);
    },
    delete: async (uploadId) => {
      await swept;
      return store.delete(uploadId);
    },
  };
}
