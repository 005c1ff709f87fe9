import type { FileMetadata } from '@coffer/contracts';
import type { FairLane } from '../../http/fair-lane.js';
import { listLane } from '../../http/fair-lane.js';
import { listAnswer } from '../../http/list-answer.js';
import type { Page } from '../../http/page-cursor.js';
import type { BlobStore } from '../../infra/storage/blob-store.js';
import type { CurrentUser } from '../users/users.service.js';
import type { Download, DownloadsService } from './downloads.service.js';
import { fileNotFound } from './downloads.service.js';
import { toFileListItem, toFileMetadata } from './file-views.js';
import type { FilesRepo } from './files.repo.js';

export interface FilesLogger {
  warn(obj: object, msg: string): void;
}

/** The caller's own files. Another user's file id is answered exactly like a missing one. */
export interface FilesService {
  /**
   * The user's files, newest first: one page (with the cursor of the next, if any), or all of them, as
   * the JSON answer of `GET /users/files` (`{files, count, nextCursor?}`). Read and encoded a batch at a
   * time in the list lane, taking turns with other requests.
   */
  list(userId: string, page?: Page, abandoned?: () => boolean): Promise<Buffer>;
  get(userId: string, fileId: string): Promise<FileMetadata>;
  download(user: CurrentUser, fileId: string, rangeHeader: string | undefined): Promise<Download>;
  delete(userId: string, fileId: string): Promise<void>;
}

export interface FilesServiceDeps {
  repo: FilesRepo;
  blobStore: BlobStore;
  downloads: DownloadsService;
  logger: FilesLogger;
  /** Where list batches wait their turn; default: the lane all list routes share. */
  lane?: FairLane;
}

export function createFilesService(deps: FilesServiceDeps): FilesService {
  const { repo } = deps;
  const ownFile = async (userId: string, fileId: string) => {
    const row = await repo.findFor(userId, fileId);
    if (row === undefined) throw fileNotFound();
    return row;
  };

  return {
    list(userId, page, abandoned) {
      return listAnswer({
        lane: deps.lane ?? listLane,
        user: userId,
        page,
        read: (limit, after) => repo.listFor(userId, { limit, after }),
        positionOf: (row) => ({ at: row.uploaded_at, id: row.id }),
        toItem: toFileListItem,
        withCount: true,
        ...(abandoned === undefined ? {} : { abandoned }),
      });
    },

    async get(userId, fileId) {
      return toFileMetadata(await ownFile(userId, fileId));
    },

    async download(user, fileId, rangeHeader) {
      const row = await ownFile(user.id, fileId);
      return deps.downloads.open(
        user,
        row,
        rangeHeader,
        async () => (await repo.findFor(user.id, fileId)) !== undefined,
      );
    },

    async delete(userId, fileId) {
      const row = await repo.deleteFor(userId, fileId);
      if (row === undefined) throw fileNotFound();
      // The file is gone for everyone once its row is; a blob left behind is only wasted space.
      try {
        await deps.blobStore.delete(row.object_key);
      } catch (err) {
        deps.logger.warn({ err, fileId, objectKey: row.object_key }, 'blob of a deleted file not removed');
      }
    },
  };
}
