import type { Kysely } from 'kysely';
import type {
  DB,
  FileRow,
  NewFileRow,
  NewUploadRow,
  UploadPartRow,
  UploadRow,
  UploadKind,
  UploadStatus,
} from '../../infra/db/schema.js';
import { scopedTo, withUserLock } from '../../infra/db/user-scope.js';
import { newId } from '../../infra/db/values.js';

export interface UploadListRow extends UploadRow {
  completed_parts: number;
}

/** The upload was aborted, swept or completed by a concurrent request: it is no longer pending. */
export class UploadNotPendingError extends Error {
  constructor(readonly uploadId: string) {
    super(`Upload ${uploadId} is no longer pending`);
    this.name = 'UploadNotPendingError';
  }
}

/** What a user's uploads and files hold against their plan at the moment a new upload is checked. */
export interface UploadUsage {
  /** Ciphertext bytes of the user's files plus those announced by their pending uploads. */
  storedBytes: number;
  /** Uploads completed since the period start plus the pending ones (each counts once it completes). */
  monthlyUploads: number;
  /** Pending multipart uploads active (started or given a part) since the idle cutoff. */
  activeMultipart: number;
  /**
   * For an upload through a file request (issue 30): the files that came through it and the pending
   * uploads that are coming, and their plaintext bytes. An aborted, failed or expired upload no longer
   * counts, so nothing needs giving back.
   */
  request?: { files: number; bytes: number };
}

/** Upload records and their parts, scoped to the uploading user (the sweeper's query excepted). */
export interface UploadsRepo {
  /**
   * Inserts `row` if `check` (given the user's usage) does not throw, in one transaction under the
   * user's lock: concurrent starts of the same user are checked one after the other, each seeing the
   * ones before it. The pending row is the reservation; aborting, failing or completing releases it.
   */
  reserve(
    row: NewUploadRow,
    window: { periodStart: string; activeSince: string },
    check: (usage: UploadUsage) => void,
  ): Promise<UploadRow>;
  /** Sets the storage upload id of a reserved multipart upload that is still pending. */
  setStorageUploadId(uploadId: string, storageUploadId: string): Promise<boolean>;
  /** Marks a pending upload active now (a part has started or arrived). */
  touch(uploadId: string, at: string): Promise<void>;
  findFor(userId: string, uploadId: string): Promise<UploadRow | undefined>;
  /** Newest first, with the number of parts received so far. */
  listFor(userId: string, limit: number): Promise<UploadListRow[]>;
  partsOf(uploadId: string): Promise<UploadPartRow[]>;
  /** Records (or replaces) a received part and marks the upload as active now. */
  savePart(
    uploadId: string,
    part: { partNumber: number; etag: string; size: number },
    at: string,
  ): Promise<void>;
  /**
   * Moves a pending upload to `status` (aborted or failed) and forgets its parts. False when it was
   * no longer pending.
   */
  finishPending(
    uploadId: string,
    status: Exclude<UploadStatus, 'pending' | 'complete'>,
    at: string,
  ): Promise<boolean>;
  /**
   * In one transaction: creates the file row, counts the upload against the monthly limit, and marks
   * the upload complete. Throws {@link UploadNotPendingError} (and changes nothing) when the upload
   * is no longer pending.
   */
  complete(upload: UploadRow, file: NewFileRow, at: string): Promise<FileRow>;
  /** Pending uploads with no activity since `before` (any user), oldest first; only `kind` if given. */
  stalePending(before: string, limit: number, kind?: UploadKind): Promise<UploadRow[]>;
  /** Whether `storageUploadId` belongs to a pending upload (any user): the sweeper's orphan test. */
  isPendingStorageUpload(storageUploadId: string): Promise<boolean>;
}

const toNumber = (value: string | number | bigint | null | undefined): number => Number(value ?? 0);

export function createUploadsRepo(db: Kysely<DB>): UploadsRepo {
  return {
    reserve(row, window, check) {
      return withUserLock(db, row.user_id, async (own, trx) => {
        const pending = () => own.selectFrom('uploads').where('status', '=', 'pending');
        // One statement, so one snapshot: a completion committing meanwhile (pending → file, count) is
        // seen either wholly or not at all, never missed by both sums.
        const usage = await trx
          .selectNoFrom(() => [
            own
              .selectFrom('files')
              .select((e) => e.fn.sum<string | number>('stored_size').as('n'))
              .as('file_bytes'),
            pending()
              .select((e) => e.fn.sum<string | number>('stored_size').as('n'))
              .as('pending_bytes'),
            pending()
              .select((e) => e.fn.countAll<string | number>().as('n'))
              .as('pending_count'),
            pending()
              .select((e) => e.fn.countAll<string | number>().as('n'))
              .where('kind', '=', 'multipart')
              .where('updated_at', '>=', window.activeSince)
              .as('active_multipart'),
            own
              .selectFrom('transfer_events')
              .select((e) => e.fn.countAll<string | number>().as('n'))
              .where('kind', '=', 'upload')
              .where('created_at', '>=', window.periodStart)
              .as('completed_uploads'),
          ])
          .executeTakeFirstOrThrow();
        const requestId = row.request_id ?? null;
        const request =
          requestId === null
            ? undefined
            : await trx
                .selectNoFrom(() => [
                  own
                    .selectFrom('files')
                    .select((e) => e.fn.countAll<string | number>().as('n'))
                    .where('request_id', '=', requestId)
                    .as('files'),
                  own
                    .selectFrom('files')
                    .select((e) => e.fn.sum<string | number>('size').as('n'))
                    .where('request_id', '=', requestId)
                    .as('file_bytes'),
                  pending()
                    .select((e) => e.fn.countAll<string | number>().as('n'))
                    .where('request_id', '=', requestId)
                    .as('uploads'),
                  pending()
                    .select((e) => e.fn.sum<string | number>('size').as('n'))
                    .where('request_id', '=', requestId)
                    .as('upload_bytes'),
                ])
                .executeTakeFirstOrThrow();
        check({
          storedBytes: toNumber(usage.file_bytes) + toNumber(usage.pending_bytes),
          monthlyUploads: toNumber(usage.completed_uploads) + toNumber(usage.pending_count),
          activeMultipart: toNumber(usage.active_multipart),
          ...(request === undefined
            ? {}
            : {
                request: {
                  files: toNumber(request.files) + toNumber(request.uploads),
                  bytes: toNumber(request.file_bytes) + toNumber(request.upload_bytes),
                },
              }),
        });
        return trx.insertInto('uploads').values(row).returningAll().executeTakeFirstOrThrow();
      });
    },

    async setStorageUploadId(uploadId, storageUploadId) {
      const result = await db
        .updateTable('uploads')
        .set({ storage_upload_id: storageUploadId })
        .where('id', '=', uploadId)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async touch(uploadId, at) {
      await db
        .updateTable('uploads')
        .set({ updated_at: at })
        .where('id', '=', uploadId)
        .where('status', '=', 'pending')
        .execute();
    },

    findFor(userId, uploadId) {
      return scopedTo(db, userId)
        .selectFrom('uploads')
        .selectAll()
        .where('id', '=', uploadId)
        .executeTakeFirst();
    },

    async listFor(userId, limit) {
      const rows = await scopedTo(db, userId)
        .selectFrom('uploads')
        .selectAll('uploads')
        .select((eb) =>
          eb
            .selectFrom('upload_parts')
            .select((e) => e.fn.countAll<string | number>().as('n'))
            .whereRef('upload_parts.upload_id', '=', 'uploads.id')
            .as('completed_parts'),
        )
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ ...row, completed_parts: toNumber(row.completed_parts) }));
    },

    partsOf(uploadId) {
      return db
        .selectFrom('upload_parts')
        .selectAll()
        .where('upload_id', '=', uploadId)
        .orderBy('part_number')
        .execute();
    },

    async savePart(uploadId, part, at) {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('upload_parts')
          .values({
            upload_id: uploadId,
            part_number: part.partNumber,
            etag: part.etag,
            size: part.size,
            created_at: at,
          })
          .onConflict((oc) =>
            oc
              .columns(['upload_id', 'part_number'])
              .doUpdateSet({ etag: part.etag, size: part.size, created_at: at }),
          )
          .execute();
        await trx.updateTable('uploads').set({ updated_at: at }).where('id', '=', uploadId).execute();
      });
    },

    finishPending(uploadId, status, at) {
      return db.transaction().execute(async (trx) => {
        const updated = await trx
          .updateTable('uploads')
          .set({ status, updated_at: at })
          .where('id', '=', uploadId)
          .where('status', '=', 'pending')
          .executeTakeFirst();
        if (updated.numUpdatedRows === 0n) return false;
        await trx.deleteFrom('upload_parts').where('upload_id', '=', uploadId).execute();
        return true;
      });
    },

    complete(upload, file, at) {
      return db.transaction().execute(async (trx) => {
        // Claim the upload first: a concurrent completion waits on this row and then finds it no
        // longer pending, instead of racing to insert the same file.
        const claimed = await trx
          .updateTable('uploads')
          .set({ status: 'complete', updated_at: at })
          .where('id', '=', upload.id)
          .where('status', '=', 'pending')
          .executeTakeFirst();
        // Throwing rolls everything back.
        if (claimed.numUpdatedRows === 0n) throw new UploadNotPendingError(upload.id);
        const row = await trx.insertInto('files').values(file).returningAll().executeTakeFirstOrThrow();
        await trx
          .insertInto('transfer_events')
          .values({
            id: newId(),
            user_id: upload.user_id,
            kind: 'upload',
            bytes: file.stored_size,
            created_at: at,
          })
          .execute();
        await trx.updateTable('uploads').set({ file_id: row.id }).where('id', '=', upload.id).execute();
        await trx.deleteFrom('upload_parts').where('upload_id', '=', upload.id).execute();
        return row;
      });
    },

    stalePending(before, limit, kind) {
      let query = db
        .selectFrom('uploads')
        .selectAll()
        .where('status', '=', 'pending')
        .where('updated_at', '<', before);
      if (kind !== undefined) query = query.where('kind', '=', kind);
      return query.orderBy('updated_at').limit(limit).execute();
    },

    async isPendingStorageUpload(storageUploadId) {
      const row = await db
        .selectFrom('uploads')
        .select('id')
        .where('storage_upload_id', '=', storageUploadId)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
