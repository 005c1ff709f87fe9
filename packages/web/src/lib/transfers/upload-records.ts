import type { ChunkHashing, ChunkHashScheme } from '../crypto-worker';

/**
 * What this browser remembers of each multipart upload in progress, so it can be resumed after a
 * reload, a crash or a closed laptop (issue 18). One record per upload, written when the server
 * has created the upload, completed as chunks are encrypted, deleted when the upload completes, is
 * cancelled, or the server no longer knows it. The browser implementation is IndexedDB
 * (`upload-records.idb.ts`); tests use the in-memory one.
 *
 * Nothing secret is kept: the file key stays wrapped to the owner's public key (only its base64 copy,
 * to notice a server that hands back another one), and the chunk identities are keyed by a
 * non-extractable key of the upload's own (`gmac-pieces`; older records: hashes of plaintext the
 * user holds).
 */
export interface UploadRecord {
  readonly uploadId: string;
  readonly objectKey: string;
  /** The file's identity when the upload started. */
  readonly fileName: string;
  readonly size: number;
  readonly lastModified: number;
  readonly chunkSize: number;
  /** The owner-wrapped file key as sent at the start (base64): the server must hand back the same. */
  readonly encryptedFileKey: string;
  /** The owner's key id (`encryptionInfo.version`): whose upload it is, on a browser several people use. */
  readonly keyVersion: string;
  /**
   * Lowercase hex hash of each chunk's plaintext, by chunk index, as far as encrypted, in the scheme
   * of `hashScheme` (the field keeps its first name: records in browsers carry it).
   */
  readonly chunkSha256: Readonly<Record<number, string>>;
  /** How `chunkSha256` was computed; absent in records written before the piece list (`sha256`). */
  readonly hashScheme?: ChunkHashScheme;
  /**
   * The upload's own identity key where `hashScheme` is `gmac-pieces` (`generateChunkIdentityKey`:
   * AES-GCM, non-extractable; IndexedDB keeps a `CryptoKey` as it is).
   */
  readonly hashKey?: CryptoKey;
  /** Where the upload started from a File System Access handle: re-opened after a permission prompt. */
  readonly handle?: FileSystemFileHandle;
  /** Epoch ms. */
  readonly startedAt: number;
  /** Epoch ms of the last chunk hash added (a part was about to be sent); absent before the first. */
  readonly updatedAt?: number;
}

/**
 * A record idle this long is deleted when the app starts: 3 × the server's default
 * `UPLOAD_EXPIRY_HOURS` (24 h), after which the server has aborted the upload anyway. The upload
 * screen forgets the signed-in person's finished uploads by asking the server; this also clears the
 * records nobody signed in here will ask about: another person's on a shared browser, or those of a
 * key replaced since. (A server configured to keep idle uploads longer than 72 h loses only the
 * chance to resume them from this browser.)
 */
export const UPLOAD_RECORD_IDLE_MS = 3 * 24 * 60 * 60 * 1000;

/** When the record last changed. */
export function lastActivityOf(record: Pick<UploadRecord, 'startedAt' | 'updatedAt'>): number {
  return Math.max(record.startedAt, record.updatedAt ?? 0);
}

/**
 * Deletes the records idle for longer than `maxIdleMs` (see {@link UPLOAD_RECORD_IDLE_MS}).
 * Answers how many it deleted.
 */
export async function forgetIdleUploadRecords(
  store: UploadRecordStore,
  now: number,
  maxIdleMs = UPLOAD_RECORD_IDLE_MS,
): Promise<number> {
  let deleted = 0;
  for (const record of await store.all()) {
    if (now - lastActivityOf(record) <= maxIdleMs) continue;
    await store.delete(record.uploadId);
    deleted++;
  }
  return deleted;
}

/**
 * How a record's chunk hashes were computed, with the key where the scheme has one; null where the
 * record cannot check a file: a scheme this app does not know, or a `gmac-pieces` record without a
 * usable key (an AES-GCM `CryptoKey` that may encrypt).
 */
export function chunkHashingOf(record: Pick<UploadRecord, 'hashScheme' | 'hashKey'>): ChunkHashing | null {
  const scheme: unknown = record.hashScheme ?? 'sha256';
  if (scheme === 'sha256' || scheme === 'sha256-pieces') return { scheme };
  if (scheme !== 'gmac-pieces') return null;
  const key: unknown = record.hashKey;
  const usable =
    typeof CryptoKey !== 'undefined' &&
    key instanceof CryptoKey &&
    key.algorithm.name === 'AES-GCM' &&
    key.usages.includes('encrypt');
  return usable ? { scheme, key } : null;
}

export interface UploadRecordStore {
  get(uploadId: string): Promise<UploadRecord | undefined>;
  all(): Promise<UploadRecord[]>;
  put(record: UploadRecord): Promise<void>;
  /** Adds one chunk's plaintext hash and sets `updatedAt` to `at` (nothing when the record is gone). */
  addChunkHash(uploadId: string, index: number, sha256Hex: string, at?: number): Promise<void>;
  delete(uploadId: string): Promise<void>;
}

export function createMemoryUploadRecords(): UploadRecordStore {
  const records = new Map<string, UploadRecord>();
  return {
    get: (uploadId) => Promise.resolve(records.get(uploadId)),
    all: () => Promise.resolve([...records.values()]),
    put: (record) => {
      records.set(record.uploadId, record);
      return Promise.resolve();
    },
    addChunkHash: (uploadId, index, sha256Hex, at = Date.now()) => {
      const record = records.get(uploadId);
      if (record !== undefined) records.set(uploadId, withChunkHash(record, index, sha256Hex, at));
      return Promise.resolve();
    },
    delete: (uploadId) => {
      records.delete(uploadId);
      return Promise.resolve();
    },
  };
}

/** The record with one more chunk hash, touched at `at`. */
export function withChunkHash(
  record: UploadRecord,
  index: number,
  sha256Hex: string,
  at: number,
): UploadRecord {
  return { ...record, chunkSha256: { ...record.chunkSha256, [index]: sha256Hex }, updatedAt: at };
}

/** The File System Access handle a dropped file carries (react-dropzone sets `file.handle` in Chromium). */
export function fileHandleOf(file: File): FileSystemFileHandle | undefined {
  const handle = (file as File & { handle?: unknown }).handle;
  return typeof FileSystemFileHandle !== 'undefined' && handle instanceof FileSystemFileHandle
    ? handle
    : undefined;
}
