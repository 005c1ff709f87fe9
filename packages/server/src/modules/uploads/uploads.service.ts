import type {
  CompleteMultipartUploadRequest,
  CreateMultipartUploadRequest,
  CreateMultipartUploadResponse,
  DirectUploadMetadata,
  FileListItem,
  FileNode,
  MultipartUploadState,
  RequestFileMetadata,
  UploadItem,
  UploadPartResponse,
} from '@coffer/contracts';
import {
  chunkCountFor,
  completeEncryptionInfo,
  encryptedPartSizeFor,
  encryptedSizeFor,
  ErrorCode,
} from '@coffer/contracts';
import { ApiError, NotFoundError, ValidationError } from '../../http/errors.js';
import type { UploadRow } from '../../infra/db/schema.js';
import { newId, nowIso } from '../../infra/db/values.js';
import type { BlobStore } from '../../infra/storage/blob-store.js';
import {
  BlobSizeMismatchError,
  InvalidPartError,
  MultipartUploadNotFoundError,
} from '../../infra/storage/blob-store.js';
import { objectKeyFor, parseEncryptionInfo, SEALED_NAME_COLUMNS } from '../files/file-views.js';
import { assertNodePlace, folderNotFound, nodeIdTaken } from '../files/files.service.js';
import type { FilesRepo } from '../files/files.repo.js';
import type { CurrentUser } from '../users/users.service.js';
import type { RequestLimits, UploadPolicy } from './upload-policy.js';
import { createUploadRecorder, notInProgress } from './upload-recorder.js';
import { sameEtag, toUploadItem } from './upload-views.js';
import type { UploadsRepo } from './uploads.repo.js';

export interface UploadPartInput {
  uploadId: string;
  partNumber: number;
  objectKey: string;
  /** The request's `Content-Length`, when it has one (a chunked body has none). */
  contentLength: number | undefined;
  body: AsyncIterable<Uint8Array>;
}

export interface UploadsService {
  list(userId: string, limit: number): Promise<UploadItem[]>;
  /**
   * One of the user's unfinished multipart uploads with the parts the server holds, for resuming it.
   * Anything else (another user's, a direct, complete, aborted, failed or expired upload) is not found.
   */
  multipartState(userId: string, uploadId: string): Promise<MultipartUploadState>;
  /** `through`: the file request the upload comes through (issue 30): `user` is then its owner. */
  createMultipart(
    user: CurrentUser,
    body: CreateMultipartUploadRequest,
    through?: UploadThrough,
  ): Promise<CreateMultipartUploadResponse>;
  uploadPart(user: CurrentUser, input: UploadPartInput): Promise<UploadPartResponse>;
  completeMultipart(
    user: CurrentUser,
    uploadId: string,
    body: CompleteMultipartUploadRequest,
  ): Promise<FileListItem>;
  abortMultipart(user: CurrentUser, uploadId: string): Promise<void>;
  /**
   * Stores a direct upload streamed in `body`. `afterBody` runs once the body is stored and before the
   * file is recorded; if it throws (the form goes on after the file), nothing is kept.
   */
  direct(
    user: CurrentUser,
    metadata: DirectUploadMetadata,
    body: AsyncIterable<Uint8Array>,
    afterBody: () => Promise<void>,
    through?: UploadThrough,
  ): Promise<FileListItem>;
}

/** A file request an upload comes through, with its limits (checked with the owner's plan, in one step). */
export interface UploadThrough extends RequestLimits {
  requestId: string;
  /** The signed-in sender, for a request that takes files from signed-in people only; else null. */
  uploaderId: string | null;
}

export interface UploadsLogger {
  warn(obj: object, msg: string): void;
}

export interface UploadsServiceDeps {
  repo: UploadsRepo;
  files: FilesRepo;
  policy: UploadPolicy;
  blobStore: BlobStore;
  logger: UploadsLogger;
  now: () => Date;
  /**
   * `UPLOAD_EXPIRY_HOURS`: a pending upload idle this long is expired (the sweeper aborts it at its next
   * run); no longer resumable. Default 24.
   */
  expiryHours?: number;
}

const uploadNotFound = () => new NotFoundError('Upload not found');

/** While bytes of an upload arrive, its row is marked active at most this often. */
export const ACTIVITY_TOUCH_MS = 60_000;

/**
 * Yields `body`, marking the upload active (`touch`) whenever a chunk arrives more than
 * {@link ACTIVITY_TOUCH_MS} after the last mark: a slow upload stays active, a dead one (no bytes, a
 * crashed server) goes idle. No timer: nothing is marked unless bytes arrive.
 */
async function* touching(
  body: AsyncIterable<Uint8Array>,
  touch: () => Promise<void>,
  now: () => number,
): AsyncGenerator<Uint8Array, void, undefined> {
  let last = now();
  for await (const chunk of body) {
    if (now() - last >= ACTIVITY_TOUCH_MS) {
      last = now();
      await touch();
    }
    yield chunk;
  }
}

export function createUploadsService(deps: UploadsServiceDeps): UploadsService {
  const { repo, blobStore } = deps;
  const recorder = createUploadRecorder(deps);
  const active = (uploadId: string, body: AsyncIterable<Uint8Array>) =>
    touching(
      body,
      () => repo.touch(uploadId, nowIso(deps.now())),
      () => deps.now().getTime(),
    );

  /** The caller's multipart upload; a wrong objectKey is answered like a missing upload. */
  async function ownMultipart(userId: string, uploadId: string, objectKey?: string): Promise<UploadRow> {
    const row = await repo.findFor(userId, uploadId);
    if (row?.kind !== 'multipart' || (objectKey !== undefined && row.object_key !== objectKey)) {
      throw uploadNotFound();
    }
    return row;
  }

  /** A new file's node: a folder of the caller's (or the top) and a node id nothing else has. */
  async function checkNewNode(
    userId: string,
    node: { nodeId: string; parentNodeId: string | null },
  ): Promise<void> {
    assertNodePlace(node);
    const refusal = await deps.files.newNodeRefusal(userId, node.nodeId, node.parentNodeId);
    if (refusal === 'parent-missing') throw folderNotFound();
    if (refusal === 'node-id-taken') throw nodeIdTaken();
  }

  /** Reserves a new pending upload of `user` against their plan (throws when a limit is reached). */
  async function reserveUpload(
    user: CurrentUser,
    fields: {
      name: string;
      contentType: string;
      size: number;
      encryptionInfo: CreateMultipartUploadRequest['encryptionInfo'];
      manifest?: string | undefined;
      node?: FileNode | undefined;
      sealedMetadata?: RequestFileMetadata | undefined;
      parts: number;
    },
    kind: 'direct' | 'multipart',
    through?: UploadThrough,
  ): Promise<UploadRow> {
    const id = newId();
    const at = nowIso(deps.now());
    const { node, sealedMetadata } = fields;
    if (node !== undefined) await checkNewNode(user.id, node);
    // A file request's uploader seals the name without placing the file (issue 30): its node id is the owner's.
    if (sealedMetadata !== undefined) {
      if (through === undefined) throw new ValidationError('sealedMetadata is for file request uploads only');
      await checkNewNode(user.id, { ...sealedMetadata, parentNodeId: null });
    }
    const sealed = node ?? sealedMetadata;
    return deps.policy.reserve(
      user,
      {
        id,
        user_id: user.id,
        // With a node the name and content type are sealed in it: the clear ones are never stored.
        ...(sealed === undefined
          ? { file_name: fields.name, content_type: fields.contentType }
          : { file_name: SEALED_NAME_COLUMNS.name, content_type: SEALED_NAME_COLUMNS.content_type }),
        node: sealed === undefined ? null : JSON.stringify(sealed),
        size: fields.size,
        stored_size: encryptedSizeFor(fields.size),
        is_encrypted: 1,
        // The spec's shape leaves out format and chunkSize: stored with their one value, as sent by the app.
        encryption_info: JSON.stringify(completeEncryptionInfo(fields.encryptionInfo)),
        // Stored as sent: the owner's app verifies it (the server is not trusted to).
        manifest: fields.manifest ?? null,
        object_key: objectKeyFor(user.id, id),
        // A multipart upload gets its storage id once the reservation stands: a refused start never
        // touches the blob store.
        storage_upload_id: null,
        kind,
        status: 'pending',
        parts: fields.parts,
        file_id: null,
        created_at: at,
        updated_at: at,
        request_id: through?.requestId ?? null,
        uploaded_by: through?.uploaderId ?? null,
      },
      fields.encryptionInfo,
      through,
    );
  }

  return {
    async list(userId, limit) {
      return (await repo.listFor(userId, limit))
        .map(toUploadItem)
        .filter((item): item is UploadItem => item !== null);
    },

    async multipartState(userId, uploadId) {
      const row = await ownMultipart(userId, uploadId);
      const expiresAt = Date.parse(row.updated_at) + (deps.expiryHours ?? 24) * 3600 * 1000;
      if (row.status !== 'pending' || row.storage_upload_id === null || expiresAt < deps.now().getTime()) {
        throw uploadNotFound();
      }
      const encryptionInfo = parseEncryptionInfo(row.encryption_info);
      if (encryptionInfo === null) throw uploadNotFound();
      const held = await repo.partsOf(row.id);
      return {
        uploadId: row.id,
        objectKey: row.object_key,
        fileName: row.file_name,
        contentType: row.content_type,
        size: row.size,
        createdAt: row.created_at,
        parts: row.parts,
        heldParts: held.map((part) => ({ partNumber: part.part_number, size: part.size, etag: part.etag })),
        encryptionInfo,
      };
    },

    async createMultipart(user, body, through) {
      const parts = chunkCountFor(body.size);
      if (body.parts !== parts) {
        throw new ValidationError(`A file of ${body.size} bytes is uploaded in exactly ${parts} part(s)`);
      }
      const row = await reserveUpload(user, { ...body, parts }, 'multipart', through);
      try {
        const { uploadId: storageId } = await blobStore.createMultipart(row.object_key);
        if (!(await repo.setStorageUploadId(row.id, storageId))) {
          await blobStore.abortMultipart(row.object_key, storageId).catch(() => undefined);
          throw notInProgress();
        }
      } catch (error) {
        await recorder.fail(row.id);
        throw error;
      }
      return { uploadId: row.id, objectKey: row.object_key };
    },

    async uploadPart(user, input) {
      const row = await ownMultipart(user.id, input.uploadId, input.objectKey);
      if (row.status !== 'pending' || row.storage_upload_id === null) throw notInProgress(row.status);
      const expected = encryptedPartSizeFor(row.size, input.partNumber);
      if (expected === null) {
        throw new ValidationError(
          `Part ${input.partNumber} is out of range: this upload has ${row.parts} part(s)`,
        );
      }
      const wrongLength = () =>
        new ValidationError(`Part ${input.partNumber} of this file must be exactly ${expected} bytes`);
      if (input.contentLength !== undefined && input.contentLength !== expected) throw wrongLength();
      // A part on its way keeps the upload counted as in progress, however long the part takes.
      await repo.touch(row.id, nowIso(deps.now()));
      let etag: string;
      try {
        ({ etag } = await blobStore.uploadPart(
          row.object_key,
          row.storage_upload_id,
          input.partNumber,
          active(row.id, input.body),
          {
            size: expected,
          },
        ));
      } catch (error) {
        if (error instanceof BlobSizeMismatchError) throw wrongLength();
        if (error instanceof MultipartUploadNotFoundError) throw notInProgress();
        throw error;
      }
      await repo.savePart(row.id, { partNumber: input.partNumber, etag, size: expected }, nowIso(deps.now()));
      return { etag };
    },

    async completeMultipart(user, uploadId, body) {
      if (body.uploadId !== uploadId)
        throw new ValidationError('uploadId in the body must be the one in the path');
      const row = await ownMultipart(user.id, uploadId, body.objectKey);
      if (row.status === 'complete') {
        // A retried completion whose answer was lost: answer the same file again.
        const recorded = await recorder.recorded(user.id, row.id);
        if (recorded !== undefined) return recorded;
      }
      if (row.status !== 'pending' || row.storage_upload_id === null) throw notInProgress(row.status);

      const listed = body.parts;
      if (listed.length !== row.parts || listed.some((part, i) => part.partNumber !== i + 1)) {
        throw new ValidationError(`List every part from 1 to ${row.parts} once, in ascending order`);
      }
      const stored = new Map((await repo.partsOf(row.id)).map((part) => [part.part_number, part]));
      const parts: { partNumber: number; etag: string }[] = [];
      for (const { partNumber, etag } of listed) {
        const part = stored.get(partNumber);
        if (part === undefined || !sameEtag(part.etag, etag)) {
          // A concurrent completion (or abort) may have ended the upload, and forgotten its parts,
          // between reading the upload and reading its parts: a completion answers the same file.
          const recorded = await recorder.recorded(user.id, row.id);
          if (recorded !== undefined) return recorded;
          const current = await repo.findFor(user.id, row.id);
          if (current !== undefined && current.status !== 'pending') throw notInProgress(current.status);
          throw new ValidationError(`Part ${partNumber} has not been uploaded, or its etag does not match`);
        }
        parts.push({ partNumber, etag: part.etag });
      }

      try {
        await blobStore.completeMultipart(row.object_key, row.storage_upload_id, parts);
      } catch (error) {
        // The upload stays pending: the client may re-send parts and complete again.
        if (error instanceof InvalidPartError)
          throw new ValidationError(`The parts cannot be assembled: ${error.message}`);
        if (error instanceof MultipartUploadNotFoundError) {
          // Completed already: by a concurrent request for the same upload, or by an earlier attempt
          // whose recording failed. If the whole object is there, record it (once).
          const recorded = await recorder.recorded(user.id, row.id);
          if (recorded !== undefined) return recorded;
          if ((await blobStore.stat(row.object_key))?.size === row.stored_size) return recorder.record(row);
          // Left pending rather than failed, so a completion still in flight is never undone; an abort
          // or the sweeper ends it.
          throw new ApiError(
            400,
            ErrorCode.UPLOAD_FAILED,
            'The upload could not be completed. Please try again, or upload the file again.',
          );
        }
        throw error;
      }
      return recorder.record(row);
    },

    async abortMultipart(user, uploadId) {
      const row = await ownMultipart(user.id, uploadId);
      if (row.status === 'pending') {
        // Claiming the row first means a completion racing with this abort cannot record the file.
        if (!(await repo.finishPending(row.id, 'aborted', nowIso(deps.now())))) {
          const current = await repo.findFor(user.id, uploadId);
          if (current?.status === 'complete')
            throw new ApiError(400, ErrorCode.INVALID_OPERATION, 'The upload is already complete');
          return;
        }
        if (row.storage_upload_id !== null) {
          await blobStore.abortMultipart(row.object_key, row.storage_upload_id).catch((err: unknown) => {
            deps.logger.warn({ err, uploadId }, 'parts of an aborted upload not removed');
          });
        }
        return;
      }
      if (row.status === 'complete') {
        throw new ApiError(400, ErrorCode.INVALID_OPERATION, 'The upload is already complete');
      }
      // Already aborted or failed: aborting again changes nothing.
    },

    async direct(user, metadata, body, afterBody, through) {
      const storedSize = encryptedSizeFor(metadata.size);
      const row = await reserveUpload(user, { ...metadata, parts: 1 }, 'direct', through);
      try {
        await blobStore.put(row.object_key, active(row.id, body), { size: storedSize });
      } catch (error) {
        // A failed put stores nothing.
        await recorder.fail(row.id);
        if (error instanceof BlobSizeMismatchError) {
          throw new ValidationError(
            `A ${metadata.size}-byte file encrypts to exactly ${storedSize} bytes; the file part has ` +
              (error.actual > storedSize ? 'more' : `${error.actual}`),
          );
        }
        throw error;
      }
      try {
        await afterBody();
      } catch (error) {
        await recorder.discard(row.object_key);
        await recorder.fail(row.id);
        throw error;
      }
      return recorder.record(row);
    },
  };
}
