import type { CreateFolderRequest, Folder, UpdateFolderRequest } from '@coffer/contracts';
import { ErrorCode, FOLDER_DEPTH_MAX, FOLDERS_PER_USER_MAX } from '@coffer/contracts';
import { ApiError } from '../../http/errors.js';
import { isUniqueViolation } from '../../infra/db/errors.js';
import type { FolderRow } from '../../infra/db/schema.js';
import { nowIso } from '../../infra/db/values.js';
import type { BlobStore } from '../../infra/storage/blob-store.js';
import { assertNodePlace, folderNotFound, nodeIdTaken } from '../files/files.service.js';
import type { FolderTree } from './folder-tree.js';
import { depthOf, heightOf } from './folder-tree.js';
import type { FoldersRepo, Guarded } from './folders.repo.js';

export interface FoldersLogger {
  warn(obj: object, msg: string): void;
}

/**
 * The caller's folders. The server checks places (the parent exists, no cycle, depth, count) and sizes;
 * names, keys and records are sealed or signed by the owner's browser and stored as sent.
 */
export interface FoldersService {
  list(userId: string): Promise<Folder[]>;
  create(userId: string, body: CreateFolderRequest): Promise<Folder>;
  /** Rename or move: place, wrap, metadata and record replaced together. */
  update(userId: string, nodeId: string, body: UpdateFolderRequest): Promise<Folder>;
  /** The folder with everything below it; blobs removed after the rows are gone. */
  delete(userId: string, nodeId: string): Promise<void>;
}

export interface FoldersServiceDeps {
  repo: FoldersRepo;
  blobStore: BlobStore;
  logger: FoldersLogger;
  now: () => Date;
  /** Default FOLDERS_PER_USER_MAX (tests lower it). */
  maxFolders?: number;
}

export function toFolder(row: FolderRow): Folder {
  return {
    nodeId: row.node_id,
    parentNodeId: row.parent_node_id,
    wrappedKey: row.wrapped_key,
    encryptedMetadata: row.encrypted_metadata,
    nodeRecord: row.node_record,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const conflict = (message: string) => new ApiError(409, ErrorCode.INVALID_OPERATION, message);
const tooDeep = () =>
  new ApiError(400, ErrorCode.INVALID_OPERATION, `Folders may be nested at most ${FOLDER_DEPTH_MAX} deep`);

/** Where a folder may go: an existing parent (or the top), and no deeper than the limit with its subtree. */
function placeRefusal(tree: FolderTree, parentNodeId: string | null, height: number): ApiError | null {
  const parentDepth = depthOf(tree, parentNodeId);
  if (parentDepth < 0) return folderNotFound();
  return parentDepth + height > FOLDER_DEPTH_MAX ? tooDeep() : null;
}

function rowOf(result: Guarded<ApiError>): FolderRow {
  if (result === 'missing') throw folderNotFound();
  if ('refused' in result) throw result.refused;
  return result.row;
}

export function createFoldersService(deps: FoldersServiceDeps): FoldersService {
  const { repo } = deps;
  const maxFolders = deps.maxFolders ?? FOLDERS_PER_USER_MAX;

  return {
    async list(userId) {
      return (await repo.listFor(userId)).map(toFolder);
    },

    async create(userId, { nodeId, ...values }) {
      assertNodePlace({ nodeId, parentNodeId: values.parentNodeId });
      let result: Guarded<ApiError>;
      try {
        result = await repo.create(
          userId,
          nodeId,
          values,
          nowIso(deps.now()),
          (tree, { nodeIdUsedByFile }) => {
            if (tree.has(nodeId) || nodeIdUsedByFile) return nodeIdTaken();
            if (tree.size >= maxFolders) {
              return new ApiError(
                403,
                ErrorCode.INVALID_OPERATION,
                `You can have at most ${maxFolders} folders`,
              );
            }
            return placeRefusal(tree, values.parentNodeId, 1);
          },
        );
      } catch (err) {
        // A concurrent create with the same node id: the primary key answers.
        if (isUniqueViolation(err)) throw nodeIdTaken();
        throw err;
      }
      return toFolder(rowOf(result));
    },

    async update(userId, nodeId, values) {
      assertNodePlace({ nodeId, parentNodeId: values.parentNodeId });
      const result = await repo.update(userId, nodeId, values, nowIso(deps.now()), (tree) => {
        if (values.parentNodeId !== null) {
          // Walk up from the new parent: meeting the folder itself means a move under its own subtree.
          let at: string | null | undefined = values.parentNodeId;
          while (at !== null && at !== undefined) {
            if (at === nodeId) return conflict('A folder cannot be moved into itself or a folder below it');
            at = tree.get(at);
          }
        }
        return placeRefusal(tree, values.parentNodeId, heightOf(tree, nodeId));
      });
      return toFolder(rowOf(result));
    },

    async delete(userId, nodeId) {
      const deleted = await repo.deleteTree(userId, nodeId);
      if (deleted === undefined) throw folderNotFound();
      // The rows are gone for everyone; a blob left behind is only wasted space (as for a file delete).
      for (const objectKey of deleted.objectKeys) {
        try {
          await deps.blobStore.delete(objectKey);
        } catch (err) {
          deps.logger.warn({ err, objectKey }, 'blob of a deleted folder file not removed');
        }
      }
    },
  };
}
