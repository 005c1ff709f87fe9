import type { FileListItem } from '@coffer/contracts';
import type { ApiClient } from '../api/http';
import type { ChunkCipher } from '../crypto-worker';
import type { DownloadTarget } from './download';
import type { TestFormatOverrides } from './format-overrides';
import type { SaveCapabilities } from './save/save-method';
import type { SaveMethod, SaveSinkOpener } from './save/save-sink';
import type { TransferKind, TransferStatus } from './transfer-types';
import type { UploadKeys } from './upload';
import type { NodeParent } from '../drive';
import type { UploadRecord, UploadRecordStore } from './upload-records';
import type { XhrFactory } from './upload-xhr';

/** One upload or download as the screens show it. Immutable: every change is a new object. */
export interface TransferItem {
  readonly id: string;
  readonly kind: TransferKind;
  readonly fileName: string;
  /** Plaintext bytes. */
  readonly size: number;
  readonly status: TransferStatus;
  /** 0–100, in steps of 0.5, never decreasing. */
  readonly progress: number;
  /** The spec's status text ('Queued (1 of 2)', 'Encrypting chunk 1 of 3...', 'Upload complete'…). */
  readonly statusText: string;
  /** User-facing reason of a failed transfer (spec section 8), else null. */
  readonly error: string | null;
  /** Download: the file's id. Upload: the stored file's id once complete. */
  readonly fileId: string | null;
}

export interface TransfersSnapshot {
  readonly uploads: readonly TransferItem[];
  readonly downloads: readonly TransferItem[];
}

export interface UploadOutcome {
  /** The final item: status complete, failed or aborted. */
  readonly item: TransferItem;
  /** The stored file when complete. */
  readonly file: FileListItem | null;
}

export interface UploadTicket {
  readonly id: string;
  /** Settles (never rejects) when the upload ends, whichever way. */
  readonly done: Promise<UploadOutcome>;
}

export interface DownloadTicket {
  readonly id: string;
  /** Settles (never rejects) with the final item: complete, failed or aborted. */
  readonly done: Promise<TransferItem>;
}

export interface EnqueueUploadsOptions {
  readonly api: ApiClient;
  /** The unlocked session's public key and key id. */
  readonly keys: UploadKeys;
  /** The folder to upload into (issue 31); default the top of My Files. */
  readonly parent?: NodeParent;
}

export interface ResumeUploadOptions {
  readonly api: ApiClient;
  /** The unlocked session's private key: unwraps the upload's file key. */
  readonly privateKey: CryptoKey | null | undefined;
}

export interface StartDownloadOptions {
  readonly api: ApiClient;
  /** The unlocked session's private key; null/undefined throws 'Encryption is not unlocked...'. */
  readonly privateKey: CryptoKey | null | undefined;
  /** Overrides the preference (localStorage `coffer.saveMethod`, else `auto`). */
  readonly saveMethod?: SaveMethod;
}

/** The result of cancelling: the spec's snackbar text and how many transfers it stopped. */
export interface CancelResult {
  readonly count: number;
  readonly message: string;
}

export interface TransferManager {
  /**
   * `listener` hears every change. `progressOnly` is true where the change is a running transfer's own
   * progress (its percentage or phase text, published by the engine, often several in one task); a
   * change a person caused or must see at once (a transfer started, cancelled, ended, dismissed, the
   * queue moving) says false.
   */
  subscribe(listener: (progressOnly: boolean) => void): () => void;
  getSnapshot(): TransfersSnapshot;
  /**
   * Starts uploads: files up to 100 MB at once, larger ones through the queue limited by
   * `maxConcurrentUploads` ('Queued (n of total)': n-th in line of total waiting).
   * @throws {TransferError} PRECONDITION with the spec's text when encryption is not ready.
   */
  enqueueUploads(files: readonly File[], options: EnqueueUploadsOptions): UploadTicket[];
  /**
   * Starts a download. Call it straight from the click handler: with the File System Access API
   * the save dialog opens synchronously, inside the click's user activation.
   * @throws {TransferError} PRECONDITION ('Encryption is not unlocked...') without a private key.
   */
  startDownload(target: DownloadTarget, options: StartDownloadOptions): DownloadTicket;
  /**
   * Resumes the recorded multipart upload `record` with `file` (re-opened or picked again), through
   * the same queue as new large uploads; only the parts the server lacks are sent.
   * @throws {TransferError} PRECONDITION ('Encryption is not unlocked...') without a private key.
   */
  resumeUpload(file: File, record: UploadRecord, options: ResumeUploadOptions): UploadTicket;
  /**
   * Cancels one transfer (multipart uploads are aborted on the server too). Resolves with
   * 'Upload cancelled' / 'Download cancelled'; rejects with 'Error cancelling upload' when the
   * server-side abort failed.
   */
  abort(id: string): Promise<string>;
  /** Cancels every running or queued transfer of a kind: 'n uploads cancelled' / 'n downloads cancelled'. */
  abortAll(kind: TransferKind): Promise<CancelResult>;
  /** Cancels everything (logout). Never rejects. */
  abortAllOperations(): Promise<void>;
  /**
   * Cancels everything before leaving the page's route: uploads, wait 200 ms, downloads, wait
   * 300 ms (spec section 4), then resolves so navigation can go on.
   */
  abortAllForNavigation(): Promise<void>;
  /** True while anything is queued or processing. */
  hasActiveOperations(): boolean;
  /** From the subscription's stats; anything not a positive integer means the default (1). */
  setMaxConcurrentUploads(limit: number | null | undefined): void;
  /** Removes a finished item from the lists. */
  dismiss(id: string): void;
  /** Removes every finished item (of a kind). */
  clearFinished(kind?: TransferKind): void;
}

/** Outside parts, replaceable in tests. */
export interface TransferManagerDeps {
  readonly getCipher?: () => ChunkCipher;
  readonly createXhr?: XhrFactory;
  readonly fetchImpl?: typeof fetch;
  readonly openSink?: SaveSinkOpener;
  readonly saveCapabilities?: SaveCapabilities;
  readonly getSaveMethod?: () => SaveMethod;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly retryDelaysMs?: readonly number[];
  /** Records of multipart uploads for resuming them; default the browser's IndexedDB (null: none). */
  readonly uploadRecords?: UploadRecordStore | null;
  /** Tests only. */
  readonly testFormat?: TestFormatOverrides;
  /**
   * The least time between two snapshots that only move a percentage (default
   * `PROGRESS_PUBLISH_INTERVAL_MS`, transfer-manager.ts; 0: every step). Text and status changes publish at once.
   */
  readonly progressIntervalMs?: number;
}
