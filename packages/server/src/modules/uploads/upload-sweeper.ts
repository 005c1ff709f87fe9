import { nowIso } from '../../infra/db/values.js';
import type { BlobStore } from '../../infra/storage/blob-store.js';
import type { UploadsRepo } from './uploads.repo.js';

/** How often the sweeper looks for stale uploads. */
export const SWEEP_INTERVAL_MS = 15 * 60 * 1000;
const BATCH = 100;

export interface SweeperLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface UploadSweeper {
  /** Aborts every upload pending without activity for longer than the expiry; returns how many. */
  sweep(): Promise<number>;
  /** Sweeps every `intervalMs` from now on, without keeping the process alive. */
  start(intervalMs?: number): void;
  /** Stops the timer and waits for a sweep in progress. */
  stop(): Promise<void>;
}

export interface UploadSweeperDeps {
  repo: UploadsRepo;
  blobStore: BlobStore;
  /** `UPLOAD_EXPIRY_HOURS`. */
  expiryHours: number;
  logger: SweeperLogger;
  now: () => Date;
}

/**
 * Aborts uploads left pending: a client that gave up without aborting, a browser closed mid-upload, a
 * server that stopped between storing a direct upload and recording it. Each stale upload is first
 * claimed in the database (pending → aborted, so a late completion cannot record it), then its parts
 * are discarded and any object stored under its key removed: no file row refers to that key.
 */
export function createUploadSweeper(deps: UploadSweeperDeps): UploadSweeper {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;

  async function sweepOnce(): Promise<number> {
    const cutoff = nowIso(new Date(deps.now().getTime() - deps.expiryHours * 3600 * 1000));
    let swept = 0;
    for (;;) {
      const stale = await deps.repo.stalePending(cutoff, BATCH);
      for (const upload of stale) {
        if (!(await deps.repo.finishPending(upload.id, 'aborted', nowIso(deps.now())))) continue;
        swept += 1;
        try {
          if (upload.storage_upload_id !== null) {
            await deps.blobStore.abortMultipart(upload.object_key, upload.storage_upload_id);
          }
          await deps.blobStore.delete(upload.object_key);
        } catch (err) {
          deps.logger.warn({ err, uploadId: upload.id }, 'stored data of an expired upload not removed');
        }
      }
      if (stale.length < BATCH) break;
    }
    if (swept > 0) deps.logger.info({ swept }, 'expired uploads aborted');
    return swept;
  }

  const sweeper: UploadSweeper = {
    sweep() {
      // One sweep at a time: a timer tick during a long sweep joins it.
      running ??= sweepOnce().finally(() => {
        running = undefined;
      });
      return running;
    },
    start(intervalMs = SWEEP_INTERVAL_MS) {
      if (timer !== undefined) return;
      timer = setInterval(() => {
        sweeper.sweep().catch((err: unknown) => {
          deps.logger.warn({ err }, 'upload sweep failed');
        });
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
  return sweeper;
}
