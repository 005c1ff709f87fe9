/**
 * The transfer engine: encrypted uploads and streaming, decrypting downloads, as a plain
 * TypeScript store that screens subscribe to (`useSyncExternalStore(transferManager.subscribe,
 * transferManager.getSnapshot)`).
 */
import { announceTransferManager } from './loaded-manager';
import { createTransferManager } from './transfer-manager';

/** The app's one transfer manager; logout calls `transferManager.abortAllOperations()`. */
export const transferManager = createTransferManager();
// The app shell reaches it through `loaded-manager` (this engine is not on the first page).
announceTransferManager(transferManager);

export {
  createTransferManager,
  type CancelResult,
  type DownloadTicket,
  type EnqueueUploadsOptions,
  type StartDownloadOptions,
  type TransferItem,
  type TransferManager,
  type TransferManagerDeps,
  type TransfersSnapshot,
  type UploadOutcome,
  type UploadTicket,
} from './transfer-manager';
export { downloadFile, type DownloadOptions, type DownloadTarget } from './download';
export type { DownloadSource, RawDownloadMetadata } from './download-metadata';
export { uploadFile, type UploadKeys, type UploadOptions } from './upload';
export { installLeaveWarning } from './leave-warning';
export { TransferAbortedError, TransferError, type TransferErrorCode } from './transfer-errors';
export { INTEGRITY_FAILED_TEXT, transferErrorText } from './error-mapping';
export type { TransferKind, TransferProgress, TransferStatus } from './transfer-types';
export {
  detectSaveCapabilities,
  preferredSaveMethod,
  resolveSaveMethod,
  SAVE_METHOD_STORAGE_KEY,
  type SaveCapabilities,
} from './save/save-method';
export type { ResolvedSaveMethod, SaveMethod, SaveSink } from './save/save-sink';
export { registerDownloadServiceWorker } from './save/sw-registration';

/**
 * The manager as a source for the operations registry (`operations.addSource(transferOperationSource)`
 * in `src/lib/auth/operations.ts`): logout aborts everything, leaving a route waits 200 ms / 300 ms.
 */
export const transferOperationSource = {
  hasActive: (): boolean => transferManager.hasActiveOperations(),
  abortAll: (): Promise<void> => transferManager.abortAllOperations(),
  abortForNavigation: (): Promise<void> => transferManager.abortAllForNavigation(),
  subscribe: (listener: () => void): (() => void) => transferManager.subscribe(listener),
};
