import type { CreateMultipartUploadResponse } from '@coffer/contracts';
import type { ChunkHashing } from '../crypto-worker';
import type { UploadRecord, UploadRecordStore } from './upload-records';

/**
 * What a multipart upload tells the browser's upload records as it goes (issue 18): the upload's ids
 * once the server created it, each chunk's plaintext hash once encrypted (before the part is sent),
 * and its end (completed or cancelled: the record is forgotten).
 */
export interface UploadJournal {
  /** How chunks are hashed for this upload's record. */
  readonly hashing: ChunkHashing;
  started(created: CreateMultipartUploadResponse): Promise<void>;
  /** May throw (a resumed upload whose file is not the one it started from): nothing of it is sent. */
  chunkHashed(index: number, sha256Hex: string): Promise<void>;
  ended(): Promise<void>;
}

/** Never fails the upload: an upload without a record only loses the chance to be resumed. */
async function quietly(what: string, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    console.warn(`Resumable upload record: ${what} failed`, error);
  }
}

/**
 * The journal of a new upload: a record of the file's identity and its chunks' keyed identities
 * (`gmac-pieces` under `hashKey`, a fresh `generateChunkIdentityKey()` per upload).
 */
export function recordingJournal(
  store: UploadRecordStore,
  identity: Omit<
    UploadRecord,
    'uploadId' | 'objectKey' | 'chunkSha256' | 'hashScheme' | 'hashKey' | 'startedAt'
  >,
  hashKey: CryptoKey,
  now: () => number = Date.now,
): UploadJournal {
  let uploadId: string | null = null;
  return {
    hashing: { scheme: 'gmac-pieces', key: hashKey },
    started: (created) =>
      quietly('saving', async () => {
        await store.put({
          ...identity,
          uploadId: created.uploadId,
          objectKey: created.objectKey,
          chunkSha256: {},
          hashScheme: 'gmac-pieces',
          hashKey,
          startedAt: now(),
        });
        uploadId = created.uploadId;
      }),
    chunkHashed: (index, sha256Hex) =>
      uploadId === null
        ? Promise.resolve()
        : quietly('adding a chunk hash', () => store.addChunkHash(uploadId ?? '', index, sha256Hex)),
    ended: () =>
      uploadId === null ? Promise.resolve() : quietly('deleting', () => store.delete(uploadId ?? '')),
  };
}

/** A chunk of the picked file differs from the chunk of the same index the upload started with. */
export class DifferentFileError extends Error {
  constructor(readonly chunkIndex: number) {
    super(`Chunk ${chunkIndex} of the picked file differs from the one this upload started with`);
    this.name = 'DifferentFileError';
  }
}

/**
 * The journal of a resumed upload: every chunk encrypted again is compared with the hash recorded
 * for it (where one was), and refused on a difference before anything of it is sent; new hashes are
 * added, so a second interruption can be resumed too.
 */
export function verifyingJournal(
  store: UploadRecordStore,
  record: UploadRecord,
  hashing: ChunkHashing,
): UploadJournal {
  return {
    hashing,
    started: () => Promise.resolve(),
    async chunkHashed(index, sha256Hex) {
      const expected = record.chunkSha256[index];
      if (expected !== undefined && expected !== sha256Hex) throw new DifferentFileError(index);
      if (expected === undefined) {
        await quietly('adding a chunk hash', () => store.addChunkHash(record.uploadId, index, sha256Hex));
      }
    },
    ended: () => quietly('deleting', () => store.delete(record.uploadId)),
  };
}
