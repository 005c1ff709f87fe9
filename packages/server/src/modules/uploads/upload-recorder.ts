import { isUniqueViolation } from '../../infra/db/errors.js';
import { ErrorCode } from '@coffer/contracts';
import type { FileListItem, FileNode, RequestFileMetadata } from '@coffer/contracts';
import { ApiError } from '../../http/errors.js';
import type { NewFileRow, UploadRow } from '../../infra/db/schema.js';
import { nowIso } from '../../infra/db/values.js';
import type { BlobStore } from '../../infra/storage/blob-store.js';
import { toFileListItem } from '../files/file-views.js';
import type { FilesRepo } from '../files/files.repo.js';
import { folderNotFound, nodeIdTaken } from '../files/files.service.js';
import type { UploadsRepo } from './uploads.repo.js';
import { UploadNotPendingError } from './uploads.repo.js';

/** What an upload's `node` column holds: a FileNode, or a file request's sealed metadata (issue 30). */
type UploadNode = FileNode | RequestFileMetadata;

/**
 * The file columns of an upload's node (JSON text, checked when the upload began). A file request's
 * upload sets only the node id and the sealed metadata: the owner's browser places it later.
 */
function nodeColumnsOf(nodeJson: string | null): Partial<NewFileRow> {
  if (nodeJson === null) return {};
  const node = JSON.parse(nodeJson) as UploadNode;
  return {
    node_id: node.nodeId,
    parent_node_id: 'parentNodeId' in node ? node.parentNodeId : null,
    wrapped_key: 'wrappedKey' in node ? node.wrappedKey : null,
    encrypted_metadata: node.encryptedMetadata,
    node_record: 'nodeRecord' in node ? node.nodeRecord : null,
  };
}

export const notInProgress = (status = 'no longer pending'): ApiError =>
  new ApiError(
    400,
    ErrorCode.INVALID_OPERATION,
    `This upload is ${status}: it cannot take parts or be completed`,
  );

/**
 * The last step of an upload, once its object is stored: record the file, or make sure nothing of
 * the upload stays behind. The object and the file row must never exist one without the other.
 */
export interface UploadRecorder {
  /**
   * Records the file for the stored object of `upload`, in one transaction with its upload count
   * and status; on failure deletes the object (unless a concurrent completion recorded it).
   */
  record(upload: UploadRow): Promise<FileListItem>;
  /** The file a completed upload created, if the upload is complete and the file still exists. */
  recorded(userId: string, uploadId: string): Promise<FileListItem | undefined>;
  /**
   * Refuses (after discarding the object and failing the upload) an upload whose node's folder is gone
   * or whose node id another file or folder took since the upload began.
   */
  checkNode(upload: UploadRow): Promise<void>;
  /** Marks a pending upload failed; logs instead of throwing. */
  fail(uploadId: string): Promise<void>;
  /** Deletes an object no file refers to; logs instead of throwing. */
  discard(objectKey: string): Promise<void>;
}

export interface UploadRecorderDeps {
  repo: UploadsRepo;
  files: FilesRepo;
  blobStore: BlobStore;
  logger: { warn(obj: object, msg: string): void };
  now: () => Date;
}

export function createUploadRecorder(deps: UploadRecorderDeps): UploadRecorder {
  const { repo } = deps;
  const recorder: UploadRecorder = {
    async record(upload) {
      const at = nowIso(deps.now());
      await recorder.checkNode(upload);
      try {
        const file = await repo.complete(
          upload,
          {
            // The file keeps the id of the upload that created it.
            id: upload.id,
            owner_id: upload.user_id,
            name: upload.file_name,
            content_type: upload.content_type,
            size: upload.size,
            stored_size: upload.stored_size,
            is_encrypted: upload.is_encrypted,
            encryption_info: upload.encryption_info,
            manifest: upload.manifest,
            object_key: upload.object_key,
            uploaded_at: at,
            request_id: upload.request_id,
            uploaded_by: upload.uploaded_by,
            ...nodeColumnsOf(upload.node),
          },
          at,
        );
        return toFileListItem(file);
      } catch (error) {
        // A unique violation on the file id means the same: another completion inserted it first.
        if (error instanceof UploadNotPendingError || isUniqueViolation(error)) {
          // A concurrent completion of the same upload recorded the file: the object is that file's.
          const recorded = await recorder.recorded(upload.user_id, upload.id);
          if (recorded !== undefined) return recorded;
          await recorder.discard(upload.object_key);
          throw notInProgress();
        }
        await recorder.discard(upload.object_key);
        await recorder.fail(upload.id);
        throw error;
      }
    },

    async checkNode(upload) {
      if (upload.node === null) return;
      const node = JSON.parse(upload.node) as UploadNode;
      const parentNodeId = 'parentNodeId' in node ? node.parentNodeId : null;
      // Checked at the start too; the folder may have been deleted (or the id taken) while the bytes came.
      const refusal = await deps.files.newNodeRefusal(upload.user_id, node.nodeId, parentNodeId);
      if (refusal === null) return;
      await recorder.discard(upload.object_key);
      await recorder.fail(upload.id);
      throw refusal === 'parent-missing' ? folderNotFound() : nodeIdTaken();
    },

    async recorded(userId, uploadId) {
      const row = await repo.findFor(userId, uploadId);
      if (row?.status !== 'complete' || row.file_id === null) return undefined;
      const file = await deps.files.findFor(userId, row.file_id);
      return file === undefined ? undefined : toFileListItem(file);
    },

    async fail(uploadId) {
      await repo.finishPending(uploadId, 'failed', nowIso(deps.now())).catch((err: unknown) => {
        deps.logger.warn({ err, uploadId }, 'upload not marked failed');
      });
    },

    async discard(objectKey) {
      await deps.blobStore.delete(objectKey).catch((err: unknown) => {
        deps.logger.warn({ err, objectKey }, 'blob of an unfinished upload not removed');
      });
    },
  };
  return recorder;
}
