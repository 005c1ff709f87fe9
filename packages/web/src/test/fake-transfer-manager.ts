/**
 * A transfer manager whose transfers the test moves by hand, for component tests of the screens
 * that upload or download. Imported only by tests.
 */
import type {
  CancelResult,
  DownloadTicket,
  TransferItem,
  TransferManager,
  TransfersSnapshot,
  UploadOutcome,
  UploadTicket,
} from '../lib/transfers';

/** A transfer manager whose transfers the test moves by hand. */
export interface FakeTransferManager extends TransferManager {
  /** Files passed to `enqueueUploads`, in order. */
  readonly uploadedFiles: File[];
  readonly downloadTargets: { fileId: string; source: string }[];
  /** A running transfer's progress, as the engine reports it (heard as `progressOnly`). */
  update(id: string, changes: Partial<TransferItem>): void;
  /** Ends a transfer: complete, failed (with `error`) or aborted. */
  finish(id: string, status: 'complete' | 'failed' | 'aborted', error?: string): void;
  /** The next `abort()` rejects (a failed server-side abort). */
  failNextAbort: boolean;
}

export function createFakeTransferManager(): FakeTransferManager {
  const items = new Map<string, TransferItem>();
  const settle = new Map<string, (item: TransferItem) => void>();
  const listeners = new Set<(progressOnly: boolean) => void>();
  let snapshot: TransfersSnapshot = { uploads: [], downloads: [] };
  let sequence = 0;
  const publish = (progressOnly = false): void => {
    const all = [...items.values()];
    snapshot = {
      uploads: all.filter((item) => item.kind === 'upload'),
      downloads: all.filter((item) => item.kind === 'download'),
    };
    for (const listener of [...listeners]) listener(progressOnly);
  };
  const isActive = (item: TransferItem): boolean => item.status === 'queued' || item.status === 'processing';
  const manager: FakeTransferManager = {
    uploadedFiles: [],
    downloadTargets: [],
    failNextAbort: false,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getSnapshot: () => snapshot,
    enqueueUploads(files) {
      const tickets = files.map((file): UploadTicket => {
        const id = `upload-${++sequence}`;
        manager.uploadedFiles.push(file);
        items.set(id, {
          id,
          kind: 'upload',
          fileName: file.name,
          size: file.size,
          status: 'queued',
          progress: 0,
          statusText: 'Preparing file for upload...',
          error: null,
          fileId: null,
        });
        const done = new Promise<UploadOutcome>((resolve) => {
          settle.set(id, (item) => {
            resolve({ item, file: null });
          });
        });
        return { id, done };
      });
      publish();
      return tickets;
    },
    resumeUpload(file, _record, options): UploadTicket {
      // Moved by hand like any upload; the file is listed in `uploadedFiles` too.
      const [ticket] = manager.enqueueUploads([file], {
        api: options.api,
        keys: { publicKey: null, keyVersion: null },
      });
      if (ticket === undefined) throw new Error('no ticket');
      return ticket;
    },
    startDownload(target): DownloadTicket {
      const id = `download-${++sequence}`;
      manager.downloadTargets.push({ fileId: target.fileId, source: target.source });
      items.set(id, {
        id,
        kind: 'download',
        fileName: target.fileName,
        size: target.size,
        status: 'processing',
        progress: 0,
        statusText: 'Starting download...',
        error: null,
        fileId: target.fileId,
      });
      const done = new Promise<TransferItem>((resolve) => {
        settle.set(id, resolve);
      });
      publish();
      return { id, done };
    },
    update(id, changes) {
      const item = items.get(id);
      if (item === undefined) throw new Error(`no transfer ${id}`);
      items.set(id, { ...item, ...changes });
      publish(true);
    },
    finish(id, status, error) {
      const item = items.get(id);
      if (item === undefined) throw new Error(`no transfer ${id}`);
      const final = { ...item, status, error: error ?? null };
      items.set(id, final);
      publish();
      settle.get(id)?.(final);
    },
    async abort(id) {
      const item = items.get(id);
      if (manager.failNextAbort) {
        manager.failNextAbort = false;
        throw new Error('Error cancelling upload');
      }
      if (item !== undefined && isActive(item)) manager.finish(id, 'aborted');
      await Promise.resolve();
      return item?.kind === 'download' ? 'Download cancelled' : 'Upload cancelled';
    },
    async abortAll(kind): Promise<CancelResult> {
      const active = [...items.values()].filter((item) => item.kind === kind && isActive(item));
      for (const item of active) manager.finish(item.id, 'aborted');
      await Promise.resolve();
      return {
        count: active.length,
        message: active.length === 1 ? 'Upload cancelled' : `${active.length} uploads cancelled`,
      };
    },
    abortAllOperations: () => Promise.resolve(),
    abortAllForNavigation: () => Promise.resolve(),
    hasActiveOperations: () => [...items.values()].some(isActive),
    setMaxConcurrentUploads: () => undefined,
    dismiss(id) {
      items.delete(id);
      publish();
    },
    clearFinished: () => undefined,
  };
  return manager;
}
