import type { FileListItem, FileMetadata } from '@coffer/contracts';
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
  list(userId: string): Promise<FileListItem[]>;
  get(userId: string, fileId: string): Promise<FileMetadata>;
  download(user: CurrentUser, fileId: string, rangeHeader: string | undefined): Promise<Download>;
  delete(userId: string, fileId: string): Promise<void>;
}

export interface FilesServiceDeps {
  repo: FilesRepo;
  blobStore: BlobStore;
  downloads: DownloadsService;
  logger: FilesLogger;
}

export function createFilesService(deps: FilesServiceDeps): FilesService {
  const { repo } = deps;
  const ownFile = async (userId: string, fileId: string) => {
    const row = await repo.findFor(userId, fileId);
    if (row === undefined) throw fileNotFound();
    return row;
  };

  return {
    async list(userId) {
      return (await repo.listFor(userId)).map(toFileListItem);
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
