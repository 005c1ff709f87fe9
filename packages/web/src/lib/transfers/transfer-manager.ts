import {
  DEFAULT_MAX_CONCURRENT_UPLOADS,
  downloadMessages,
  downloadsCancelledText,
  NAV_ABORT_WAITS_MS,
  queuedText,
  uploadMessages,
  uploadsCancelledText,
  type FileListItem,
} from '@coffer/contracts';
import { getSharedChunkCipher } from '../crypto-worker';
import { downloadFile } from './download';
import { transferErrorText } from './error-mapping';
import { preferredSaveMethod } from './save/save-method';
import { TransferAbortedError, TransferError } from './transfer-errors';
import type {
  CancelResult,
  TransferItem,
  TransferManager,
  TransferManagerDeps,
  TransfersSnapshot,
  UploadTicket,
} from './transfer-manager.types';
import type { TransferKind, TransferProgress, TransferStatus } from './transfer-types';
import { assertUploadKeys, isLargeUpload, uploadFile } from './upload';
import { resumeUpload } from './upload-resume';
import type { UploadRunOptions } from './upload-options';
import { createMemoryUploadRecords } from './upload-records';
import { browserUploadRecords } from './upload-records.idb';

export type * from './transfer-manager.types';

/**
 * Each snapshot re-renders every transfer's card: ~1–2 ms of the page's main thread. In 0.5 % steps a
 * 1 GiB transfer published 200–460 of them in 12 s, 1.5–2.3 CPU-seconds that the encryption on the
 * two cores needed (docs/benchmarks.md). A percentage that moves sooner than this after the last
 * snapshot waits for the next one (at most this long): the screens still move in steps of 0.5 % or more.
 */
export const PROGRESS_PUBLISH_INTERVAL_MS = 150;

interface Task {
  item: TransferItem;
  readonly controller: AbortController;
  /** Multipart uploads above the threshold go through the queue. */
  readonly queued: boolean;
  started: boolean;
  settled: boolean;
  serverAbortError: unknown;
  readonly start: () => void;
  /** Ends a task that never started. */
  readonly cancelBeforeStart: () => void;
  readonly whenSettled: Promise<void>;
}

const isActive = (status: TransferStatus): boolean => status === 'queued' || status === 'processing';

const defaultSleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

export function createTransferManager(deps: TransferManagerDeps = {}): TransferManager {
  const tasks = new Map<string, Task>();
  const listeners = new Set<(progressOnly: boolean) => void>();
  let snapshot: TransfersSnapshot = { uploads: [], downloads: [] };
  let maxConcurrentUploads = DEFAULT_MAX_CONCURRENT_UPLOADS;
  let sequence = 0;
  const getCipher = deps.getCipher ?? getSharedChunkCipher;
  const sleep = deps.sleep ?? defaultSleep;
  const uploadRecords = deps.uploadRecords === undefined ? browserUploadRecords() : deps.uploadRecords;

  const progressIntervalMs = deps.progressIntervalMs ?? PROGRESS_PUBLISH_INTERVAL_MS;
  let publishedAt = Number.NEGATIVE_INFINITY;
  /** A publish that a percentage which moved too soon after the last one is waiting for. */
  let trailing: ReturnType<typeof setTimeout> | null = null;

  const publish = (progressOnly = false): void => {
    if (trailing !== null) clearTimeout(trailing);
    trailing = null;
    publishedAt = performance.now();
    const items = [...tasks.values()].map((task) => task.item);
    snapshot = {
      uploads: items.filter((item) => item.kind === 'upload'),
      downloads: items.filter((item) => item.kind === 'download'),
    };
    for (const listener of [...listeners]) listener(progressOnly);
  };

  const patch = (task: Task, changes: Partial<TransferItem>, notify = true): void => {
    task.item = { ...task.item, ...changes };
    if (notify) publish();
  };

  const onProgress =
    (task: Task) =>
    (progress: TransferProgress): void => {
      if (task.settled || task.controller.signal.aborted || !isActive(task.item.status)) return;
      const onlyPercent = task.item.status === 'processing' && task.item.statusText === progress.text;
      patch(task, { status: 'processing', progress: progress.percent, statusText: progress.text }, false);
      const wait = publishedAt + progressIntervalMs - performance.now();
      if (!onlyPercent || progress.percent >= 100 || wait <= 0) publish(true);
      else
        trailing ??= setTimeout(() => {
          publish(true);
        }, wait);
    };

  const waiting = (): Task[] =>
    [...tasks.values()].filter((task) => task.queued && !task.started && !task.settled);

  // Queued uploads that ended since the queue was last empty: 'Queued (n of total)' counts the whole
  // run (the 3rd of 3 large files stays "3 of 3" while the 2nd runs), not only the files still waiting.
  let endedInRun = 0;

  /** Renumbers the waiting uploads and starts as many as the limit allows. */
  const pump = (): void => {
    const running = [...tasks.values()].filter((task) => task.queued && task.started && !task.settled).length;
    const line = waiting();
    if (running === 0 && line.length === 0) endedInRun = 0;
    const starting = line.splice(0, Math.max(0, maxConcurrentUploads - running));
    const ahead = endedInRun + running + starting.length;
    const total = ahead + line.length;
    // Numbered before anything starts: a starting upload publishes at once.
    line.forEach((task, index) => {
      patch(task, { statusText: queuedText(ahead + index + 1, total) }, false);
    });
    for (const task of starting) task.start();
    publish();
  };

  /** Creates a task; `run` does the work and reports how it ended. */
  const createTask = (
    kind: TransferKind,
    fields: Pick<TransferItem, 'fileName' | 'size' | 'status' | 'statusText' | 'fileId'>,
    queued: boolean,
    run: (task: Task) => Promise<Partial<TransferItem>>,
  ): Task => {
    const id = `${kind}-${++sequence}`;
    let markSettled: () => void = () => undefined;
    const whenSettled = new Promise<void>((resolve) => {
      markSettled = resolve;
    });
    const abortedText = kind === 'upload' ? uploadMessages.aborted : downloadMessages.aborted;
    const settle = (changes: Partial<TransferItem>): void => {
      if (task.settled) return;
      task.settled = true;
      patch(task, changes);
      markSettled();
      if (task.queued) {
        if (task.started) endedInRun += 1;
        pump();
      }
    };
    const task: Task = {
      item: { id, kind, progress: 0, error: null, ...fields },
      controller: new AbortController(),
      queued,
      started: false,
      settled: false,
      serverAbortError: undefined,
      whenSettled,
      start: () => {
        task.started = true;
        patch(task, { status: 'processing', statusText: fields.statusText }, false);
        run(task).then(
          (changes) => {
            settle({ status: 'complete', progress: 100, ...changes });
          },
          (error: unknown) => {
            if (error instanceof TransferAbortedError) task.serverAbortError = error.serverAbortError;
            if (task.controller.signal.aborted || error instanceof TransferAbortedError) {
              settle({ status: 'aborted', statusText: abortedText });
            } else {
              settle({ status: 'failed', error: transferErrorText(kind, error) });
            }
          },
        );
      },
      cancelBeforeStart: () => {
        settle({ status: 'aborted', statusText: abortedText });
      },
    };
    tasks.set(id, task);
    return task;
  };

  /** What every upload run takes from the manager and its task: the worker, the wire, the progress. */
  const transport = (
    task: Task,
  ): Pick<
    UploadRunOptions,
    'cipher' | 'signal' | 'onProgress' | 'createXhr' | 'retryDelaysMs' | 'testFormat'
  > => ({
    cipher: getCipher(),
    signal: task.controller.signal,
    onProgress: onProgress(task),
    createXhr: deps.createXhr,
    retryDelaysMs: deps.retryDelaysMs,
    testFormat: deps.testFormat,
  });

  /** An upload's task and ticket; `send` stores the file (fresh or resumed) and answers its listing. */
  const createUploadTask = (
    file: File,
    queued: boolean,
    send: (task: Task) => Promise<FileListItem>,
  ): { task: Task; ticket: UploadTicket } => {
    let stored: FileListItem | null = null;
    const task = createTask(
      'upload',
      {
        fileName: file.name,
        size: file.size,
        status: 'queued',
        statusText: uploadMessages.preparing,
        fileId: null,
      },
      queued,
      async (current) => {
        stored = await send(current);
        return { statusText: uploadMessages.complete, fileId: stored.fileId };
      },
    );
    return {
      task,
      ticket: { id: task.item.id, done: task.whenSettled.then(() => ({ item: task.item, file: stored })) },
    };
  };

  /** Stops a task; resolves with whether its server-side abort failed. */
  const abortTask = async (task: Task): Promise<boolean> => {
    if (task.settled) return false;
    if (!task.started) {
      task.cancelBeforeStart();
      return false;
    }
    patch(task, {
      status: 'aborted',
      statusText: task.item.kind === 'upload' ? uploadMessages.aborted : downloadMessages.aborted,
    });
    task.controller.abort();
    await task.whenSettled;
    return task.serverAbortError !== undefined;
  };

  const abortAll = async (kind: TransferKind): Promise<CancelResult> => {
    const active = [...tasks.values()].filter(
      (task) => task.item.kind === kind && isActive(task.item.status),
    );
    // Waiting ones first, so none of them starts when a running one ends.
    active.sort((a, b) => Number(a.started) - Number(b.started));
    const serverFailures = await Promise.all(active.map(abortTask));
    const count = active.length;
    if (serverFailures.some(Boolean)) {
      throw new Error(kind === 'upload' ? uploadMessages.cancelAllFailed : downloadMessages.cancelAllFailed);
    }
    const single = kind === 'upload' ? uploadMessages.cancelled : downloadMessages.cancelled;
    const plural = kind === 'upload' ? uploadsCancelledText(count) : downloadsCancelledText(count);
    return { count, message: count === 1 ? single : plural };
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    getSnapshot: () => snapshot,

    enqueueUploads(files, { api, keys, parent }) {
      assertUploadKeys(keys);
      const created = files.map((file) =>
        createUploadTask(file, isLargeUpload(file.size, deps.testFormat), (current) =>
          uploadFile({
            api,
            file,
            keys,
            ...transport(current),
            records: uploadRecords,
            ...(parent === undefined ? {} : { parent }),
          }),
        ),
      );
      pump();
      for (const { task } of created) if (!task.queued) task.start();
      publish();
      return created.map(({ ticket }) => ticket);
    },

    resumeUpload(file, record, { api, privateKey }) {
      if (privateKey === null || privateKey === undefined) {
        throw new TransferError('PRECONDITION', uploadMessages.encryptionNotInitialized);
      }
      const records = uploadRecords ?? createMemoryUploadRecords();
      const { ticket } = createUploadTask(file, true, (current) =>
        resumeUpload({ api, file, record, records, privateKey, ...transport(current) }),
      );
      pump();
      publish();
      return ticket;
    },

    startDownload(target, { api, privateKey, saveMethod }) {
      if (privateKey === null || privateKey === undefined) {
        throw new TransferError('PRECONDITION', downloadMessages.notUnlocked);
      }
      const task = createTask(
        'download',
        {
          fileName: target.fileName,
          size: target.size,
          status: 'processing',
          statusText: downloadMessages.starting,
          fileId: target.fileId,
        },
        false,
        async (current) => {
          await downloadFile({
            api,
            target,
            privateKey,
            cipher: getCipher(),
            signal: current.controller.signal,
            onProgress: onProgress(current),
            saveMethod: saveMethod ?? (deps.getSaveMethod ?? preferredSaveMethod)(),
            openSink: deps.openSink,
            saveCapabilities: deps.saveCapabilities,
            fetchImpl: deps.fetchImpl,
            testFormat: deps.testFormat,
          });
          return { statusText: downloadMessages.complete };
        },
      );
      // Synchronously: the save dialog needs the click's user activation.
      task.start();
      publish();
      return { id: task.item.id, done: task.whenSettled.then(() => task.item) };
    },

    async abort(id) {
      const task = tasks.get(id);
      const kind = task?.item.kind ?? (id.startsWith('download') ? 'download' : 'upload');
      if (task !== undefined && (await abortTask(task))) throw new Error(uploadMessages.cancelFailed);
      return kind === 'upload' ? uploadMessages.cancelled : downloadMessages.cancelled;
    },

    abortAll,

    async abortAllOperations() {
      await Promise.allSettled([abortAll('upload'), abortAll('download')]);
    },

    async abortAllForNavigation() {
      const [afterUploads, afterDownloads] = NAV_ABORT_WAITS_MS;
      const uploads = abortAll('upload').catch(() => undefined);
      await sleep(afterUploads);
      const downloads = abortAll('download').catch(() => undefined);
      await sleep(afterDownloads);
      void Promise.allSettled([uploads, downloads]);
    },

    hasActiveOperations: () => [...tasks.values()].some((task) => isActive(task.item.status)),

    setMaxConcurrentUploads(limit) {
      maxConcurrentUploads =
        limit !== null && limit !== undefined && Number.isInteger(limit) && limit >= 1
          ? limit
          : DEFAULT_MAX_CONCURRENT_UPLOADS;
      pump();
    },

    dismiss(id) {
      const task = tasks.get(id);
      if (task === undefined || isActive(task.item.status)) return;
      tasks.delete(id);
      publish();
    },

    clearFinished(kind) {
      for (const [id, task] of tasks) {
        if (!isActive(task.item.status) && (kind === undefined || task.item.kind === kind)) tasks.delete(id);
      }
      publish();
    },
  };
}
