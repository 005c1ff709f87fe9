import { nowIso } from '../../infra/db/values.js';
import type { SweepReporter } from '../../infra/metrics/sweep-report.js';
import type { BlobStore } from '../../infra/storage/blob-store.js';
import type { UploadsRepo } from './uploads.repo.js';

const BATCH = 100;

export interface SweeperLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface UploadSweeper {
  /** Aborts every upload pending without activity for longer than the expiry; returns how many. */
  sweep(): Promise<number>;
  /** Sweeps every `intervalMs` from now on, without keeping the process alive. */
  start(intervalMs: number): void;
  /** Stops the timer and waits for a sweep in progress. */
  stop(): Promise<void>;
}

export interface UploadSweeperDeps {
  repo: UploadsRepo;
  blobStore: BlobStore;
  /** `UPLOAD_EXPIRY_HOURS`: a pending upload idle this long is aborted. */
  expiryHours: number;
  /**
   * `UPLOAD_IDLE_MINUTES`: a pending direct upload idle this long is aborted. Its body is one request,
   * which touches the upload while bytes arrive, so an idle one lost its request (a crashed server).
   */
  idleMinutes: number;
  logger: SweeperLogger;
  now: () => Date;
  /** Told the outcome of every sweep (metrics): how many uploads it aborted, or that it failed. */
  onSweep?: SweepReporter;
}

/**
 * Aborts uploads left pending: a client that gave up without aborting, a browser closed mid-upload, a
 * server that died while receiving a direct upload or between storing and recording it. Each stale upload is first
 * claimed in the database (pending → aborted, so a late completion cannot record it), then its parts
 * are discarded and any object stored under its key removed: no file row refers to that key.
 */
export function createUploadSweeper(deps: UploadSweeperDeps): UploadSweeper {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;

  async function sweepOnce(): Promise<number> {
    const now = deps.now().getTime();
    const expired = nowIso(new Date(now - deps.expiryHours * 3600 * 1000));
    const idle = nowIso(new Date(now - deps.idleMinutes * 60 * 1000));
    return (await sweepBefore(expired)) + (await sweepBefore(idle, 'direct'));
  }

  async function sweepBefore(cutoff: string, kind?: 'direct'): Promise<number> {
    let swept = 0;
    for (;;) {
      const stale = await deps.repo.stalePending(cutoff, BATCH, kind);
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
    if (swept > 0) deps.logger.info({ swept, kind: kind ?? 'any' }, 'expired uploads aborted');
    return swept;
  }

  const sweeper: UploadSweeper = {
    sweep() {
      // One sweep at a time: a timer tick during a long sweep joins it.
      running ??= sweepOnce()
        .then(
          (swept) => {
            deps.onSweep?.({ ok: true, swept });
            return swept;
          },
          (err: unknown) => {
            deps.onSweep?.({ ok: false });
            throw err;
          },
        )
        .finally(() => {
          running = undefined;
        });
      return running;
    },
    start(intervalMs) {
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
