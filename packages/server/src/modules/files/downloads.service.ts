import { ErrorCode } from '@coffer/contracts';
import type { PlanLimits, Tier } from '../../config.js';
import { ApiError, NotFoundError } from '../../http/errors.js';
import type { FileRow } from '../../infra/db/schema.js';
import { nowIso } from '../../infra/db/values.js';
import type { BlobStore } from '../../infra/storage/blob-store.js';
import { BlobNotFoundError, BlobRangeNotSatisfiableError } from '../../infra/storage/blob-store.js';
import { limitsFor, periodStart } from '../users/plans.js';
import type { CurrentUser } from '../users/users.service.js';
import type { FilesRepo } from './files.repo.js';
import { ResponseReadBuffers } from './download-stream.js';
import { resolveRangeHeader } from './http-range.js';
import { startBody } from './started-body.js';

export const MONTHLY_DOWNLOAD_LIMIT_MESSAGE = 'Monthly download limit reached';

/** The ciphertext to send: the whole object (200) or one byte range of it (206). */
export interface Download {
  partial: boolean;
  body: AsyncIterable<Uint8Array>;
  /** First byte sent (inclusive). */
  start: number;
  /** Last byte sent (inclusive); `start - 1` for an empty object. */
  end: number;
  /** Bytes `body` yields. */
  size: number;
  /** Size of the whole object. */
  totalSize: number;
  /** The buffers `body` is read into, reused once the response has written them (download-stream.ts). */
  buffers: ResponseReadBuffers;
}

/** 416: the range starts past the end of the object. `totalSize` goes into `Content-Range: bytes *\/N`. */
export class RangeNotSatisfiableError extends ApiError {
  constructor(readonly totalSize: number) {
    super(416, ErrorCode.VALIDATION_FAILED, 'The requested range is outside the file');
  }
}

/**
 * How long after a counted download of a file a request for the rest of it (a range that does not
 * start at byte 0) is its resume, and not counted again: a day, for a laptop closed mid-download.
 */
export const RESUME_WINDOW_MS = 24 * 60 * 60 * 1000;

export const fileNotFound = (): NotFoundError =>
  new NotFoundError('The file does not exist or is not shared with you', ErrorCode.FILE_NOT_FOUND);

export interface DownloadsLogger {
  error(obj: object, msg: string): void;
}

export interface DownloadsService {
  /**
   * Opens `file` for `user` (its owner or a recipient, already authorized by the caller). A request that
   * starts at byte 0 is a download: it is checked against the monthly limit and counted; a request that
   * starts further on is the resume of one, neither checked nor counted, where `user`'s download of
   * this file was counted within {@link RESUME_WINDOW_MS}, and a download otherwise. So a resumed
   * download counts once, and no range takes a file uncounted. `stillVisible` re-checks access
   * when the blob is missing, to tell a file deleted meanwhile (404) from lost data (500).
   */
  open(
    user: CurrentUser,
    file: FileRow,
    rangeHeader: string | undefined,
    stillVisible: () => Promise<boolean>,
  ): Promise<Download>;
}

export interface DownloadsServiceDeps {
  blobStore: BlobStore;
  files: FilesRepo;
  plans: Record<Tier, PlanLimits>;
  logger: DownloadsLogger;
  now: () => Date;
}

export function createDownloadsService(deps: DownloadsServiceDeps): DownloadsService {
  return {
    async open(user, file, rangeHeader, stillVisible) {
      const range = resolveRangeHeader(rangeHeader, file.stored_size);
      if (range.kind === 'unsatisfiable') throw new RangeNotSatisfiableError(file.stored_size);
      const now = deps.now();
      // From byte 0: a download. Further on: the resume of one only where this person's download of
      // this file was counted recently; otherwise `Range: bytes=1-` would take the file for free.
      const counts =
        range.kind === 'whole' ||
        range.start === 0 ||
        !(await deps.files.downloadCountedSince(
          user.id,
          file.id,
          nowIso(new Date(now.getTime() - RESUME_WINDOW_MS)),
        ));
      let reservation: string | null = null;
      if (counts) {
        // Counted before the blob is opened, in one step with the check, so concurrent downloads cannot
        // overshoot the monthly limit; taken back below if the download cannot start.
        const { limits } = limitsFor(user.row, deps.plans, now);
        const bytes = range.kind === 'partial' ? Math.min(range.end + 1, file.stored_size) : file.stored_size;
        reservation = await deps.files.reserveDownload(
          user.id,
          { since: nowIso(periodStart(user.row, now)), limit: limits.monthlyDownloadLimit },
          { fileId: file.id, bytes, at: nowIso(now) },
        );
        if (reservation === null) {
          throw new ApiError(403, ErrorCode.DOWNLOAD_FAILED, MONTHLY_DOWNLOAD_LIMIT_MESSAGE);
        }
      }
      const release = async () => {
        if (reservation === null) return;
        await deps.files.releaseDownload(user.id, reservation).catch((err: unknown) => {
          deps.logger.error({ err, fileId: file.id }, 'download count of a failed download not released');
        });
      };

      try {
        return await openStoredRange(deps.blobStore, file.object_key, range);
      } catch (error) {
        await release();
        if (error instanceof BlobRangeNotSatisfiableError)
          throw new RangeNotSatisfiableError(file.stored_size);
        if (error instanceof BlobNotFoundError) {
          if (!(await stillVisible())) throw fileNotFound();
          deps.logger.error({ fileId: file.id, err: error }, 'stored object of a file is missing');
          throw new ApiError(500, ErrorCode.DOWNLOAD_FAILED, 'The file content is not available');
        }
        throw error;
      }
    },
  };
}

/**
 * The stored ciphertext of an object, whole or one resolved byte range, with its first bytes already
 * read (a failing store fails here, before any answer is sent): a user's download and a link's.
 */
export async function openStoredRange(
  blobStore: BlobStore,
  objectKey: string,
  range: Exclude<ReturnType<typeof resolveRangeHeader>, { kind: 'unsatisfiable' }>,
): Promise<Download> {
  const buffers = new ResponseReadBuffers();
  const blob = await blobStore.get(
    objectKey,
    range.kind === 'partial' ? { start: range.start, end: range.end } : undefined,
    { buffers },
  );
  const body = await startBody(blob.body);
  const start = range.kind === 'partial' ? range.start : 0;
  return {
    partial: range.kind === 'partial',
    body,
    start,
    end: start + blob.size - 1,
    size: blob.size,
    totalSize: blob.totalSize,
    buffers,
  };
}
