import type { FileMetadata, FileNodeChange, FileNodesItem } from '@coffer/contracts';
import { ErrorCode } from '@coffer/contracts';
import { ApiError, NotFoundError, ValidationError } from '../../http/errors.js';
import { isUniqueViolation } from '../../infra/db/errors.js';
import type { FairLane } from '../../http/fair-lane.js';
import { listLane } from '../../http/fair-lane.js';
import { listAnswer } from '../../http/list-answer.js';
import type { Page } from '../../http/page-cursor.js';
import type { BlobStore } from '../../infra/storage/blob-store.js';
import type { CurrentUser } from '../users/users.service.js';
import type { Download, DownloadsService } from './downloads.service.js';
import { fileNotFound } from './downloads.service.js';
import { toFileListItem, toFileMetadata } from './file-views.js';
import type { FileNodeValues, FilesRepo, SetNodesRefusal } from './files.repo.js';

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
  /** Sets or changes one file's node (migration, rename, move); answers the file as its owner sees it. */
  setNode(userId: string, fileId: string, node: FileNodeChange): Promise<FileMetadata>;
  /** Sets the nodes of many files, all or none (the migration's batches). */
  setNodes(userId: string, items: readonly FileNodesItem[]): Promise<void>;
}

/** Refuses a node no client could have signed: one that names itself as its parent. */
export function assertNodePlace(node: { nodeId: string; parentNodeId: string | null }): void {
  if (node.nodeId === node.parentNodeId) throw new ValidationError('A node cannot be its own parent');
}

export const folderNotFound = (): NotFoundError =>
  new NotFoundError('The folder does not exist', ErrorCode.NOT_FOUND);

function refusalError(refusal: SetNodesRefusal): ApiError {
  switch (refusal.kind) {
    case 'file-missing':
      return fileNotFound();
    case 'parent-missing':
      return folderNotFound();
    case 'node-id-fixed':
      return new ApiError(409, ErrorCode.INVALID_OPERATION, 'A file keeps the node id it was given');
    case 'node-id-taken':
      return nodeIdTaken();
    case 'manifest':
      return refusal.status === 400
        ? new ValidationError(refusal.message)
        : new ApiError(409, ErrorCode.INVALID_OPERATION, refusal.message);
  }
}

export const nodeIdTaken = (): ApiError =>
  new ApiError(409, ErrorCode.INVALID_OPERATION, 'Another file or folder has this node id');

const nodeValues = (node: FileNodeChange): FileNodeValues => ({
  nodeId: node.nodeId,
  parentNodeId: node.parentNodeId,
  wrappedKey: node.wrappedKey,
  encryptedMetadata: node.encryptedMetadata,
  nodeRecord: node.nodeRecord,
  manifest: node.manifest,
  shareGrants: node.shareGrants,
});

export interface FilesServiceDeps {
  repo: FilesRepo;
  blobStore: BlobStore;
  downloads: DownloadsService;
  logger: FilesLogger;
  /** Where list batches wait their turn; default: the lane all list routes share. */
  lane?: FairLane;
  /**
   * Runs after a node change was stored (names replaced by sealed ones, manifests signed again): the
   * database lets go of the rows it replaced (SQLite's write-ahead log, `truncateJournal`). A failure
   * is logged; the change stands.
   */
  afterNodesChanged?: () => Promise<void>;
}

export function createFilesService(deps: FilesServiceDeps): FilesService {
  const { repo } = deps;
  const ownFile = async (userId: string, fileId: string) => {
    const row = await repo.findFor(userId, fileId);
    if (row === undefined) throw fileNotFound();
    return row;
  };

  const setNodes = async (userId: string, items: readonly FileNodesItem[]): Promise<void> => {
    for (const item of items) assertNodePlace(item);
    if (new Set(items.map((item) => item.fileId)).size !== items.length) {
      throw new ValidationError('Each file may appear only once');
    }
    if (new Set(items.map((item) => item.nodeId)).size !== items.length) {
      throw new ValidationError('Each node id may appear only once');
    }
    let refusal: SetNodesRefusal | null;
    try {
      refusal = await repo.setNodes(
        userId,
        items.map((item) => ({ fileId: item.fileId, node: nodeValues(item) })),
      );
    } catch (err) {
      // Two calls that gave the same node id to two files at once: the unique index answers.
      if (isUniqueViolation(err)) throw nodeIdTaken();
      throw err;
    }
    if (refusal !== null) throw refusalError(refusal);
    if (deps.afterNodesChanged !== undefined) {
      try {
        await deps.afterNodesChanged();
      } catch (err) {
        deps.logger.warn({ err }, 'replaced rows not yet dropped from the database journal');
      }
    }
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
      const row = await ownFile(userId, fileId);
      // The grants the owner signs again when the manifest changes (issue 31).
      const shareGrants = await repo.shareGrantsOf(userId, fileId);
      return {
        ...toFileMetadata(row, undefined, 'owner'),
        ...(shareGrants.length === 0 ? {} : { shareGrants }),
      };
    },

    async setNode(userId, fileId, node) {
      await setNodes(userId, [{ fileId, ...node }]);
      const row = await ownFile(userId, fileId);
      return toFileMetadata(row, undefined, 'owner');
    },

    setNodes(userId, items) {
      return setNodes(userId, items);
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
