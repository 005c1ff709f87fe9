import type { Kysely } from 'kysely';
import type {
  DB,
  FileRow,
  NewFileRow,
  NewUploadRow,
  UploadPartRow,
  UploadRow,
  UploadStatus,
} from '../../infra/db/schema.js';
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

/** Upload records and their parts, scoped to the uploading user (the sweeper's query excepted). */
export interface UploadsRepo {
  insert(row: NewUploadRow): Promise<UploadRow>;
  findFor(userId: string, uploadId: string): Promise<UploadRow | undefined>;
  /** Newest first, with the number of parts received so far. */
  listFor(userId: string, limit: number): Promise<UploadListRow[]>;
  /** Multipart uploads of the user still pending: what counts against maxConcurrentUploads. */
  pendingMultipartCount(userId: string): Promise<number>;
  /** Ciphertext bytes announced by the user's pending uploads: reserved against the storage quota. */
  pendingStoredBytes(userId: string): Promise<number>;
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
  /** Pending uploads with no activity since `before` (any user), oldest first. */
  stalePending(before: string, limit: number): Promise<UploadRow[]>;
}

const toNumber = (value: string | number | bigint | null | undefined): number => Number(value ?? 0);

export function createUploadsRepo(db: Kysely<DB>): UploadsRepo {
  return {
    insert(row) {
      return db.insertInto('uploads').values(row).returningAll().executeTakeFirstOrThrow();
    },

    findFor(userId, uploadId) {
      return db
        .selectFrom('uploads')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', '=', uploadId)
        .executeTakeFirst();
    },

    async listFor(userId, limit) {
      const rows = await db
        .selectFrom('uploads')
        .selectAll('uploads')
        .select((eb) =>
          eb
            .selectFrom('upload_parts')
            .select(eb.fn.countAll<string | number>().as('n'))
            .whereRef('upload_parts.upload_id', '=', 'uploads.id')
            .as('completed_parts'),
        )
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ ...row, completed_parts: toNumber(row.completed_parts) }));
    },

    async pendingMultipartCount(userId) {
      const row = await db
        .selectFrom('uploads')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('user_id', '=', userId)
        .where('kind', '=', 'multipart')
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return toNumber(row?.n);
    },

    async pendingStoredBytes(userId) {
      const row = await db
        .selectFrom('uploads')
        .select((eb) => eb.fn.sum<string | number>('stored_size').as('total'))
        .where('user_id', '=', userId)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return toNumber(row?.total);
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

    stalePending(before, limit) {
      return db
        .selectFrom('uploads')
        .selectAll()
        .where('status', '=', 'pending')
        .where('updated_at', '<', before)
        .orderBy('updated_at')
        .limit(limit)
        .execute();
    },
  };
}
