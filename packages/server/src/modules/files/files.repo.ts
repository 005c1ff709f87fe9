import type { Kysely } from 'kysely';
import type { DB, FileRow } from '../../infra/db/schema.js';
import { newId } from '../../infra/db/values.js';

/** Files, always scoped to their owner; shares are in the shares module. */
export interface FilesRepo {
  /** Newest first. */
  listFor(ownerId: string): Promise<FileRow[]>;
  findFor(ownerId: string, fileId: string): Promise<FileRow | undefined>;
  /** Removes the file row and its shares in one transaction; returns the removed row. */
  deleteFor(ownerId: string, fileId: string): Promise<FileRow | undefined>;
  /** Counts one download against `userId`'s monthly limit. */
  recordDownload(userId: string, bytes: number, at: string): Promise<void>;
}

export function createFilesRepo(db: Kysely<DB>): FilesRepo {
  return {
    listFor(ownerId) {
      return (
        db
          .selectFrom('files')
          .selectAll()
          .where('owner_id', '=', ownerId)
          // Ties on the timestamp are broken by id so the order is stable.
          .orderBy('uploaded_at', 'desc')
          .orderBy('id', 'desc')
          .execute()
      );
    },

    findFor(ownerId, fileId) {
      return db
        .selectFrom('files')
        .selectAll()
        .where('owner_id', '=', ownerId)
        .where('id', '=', fileId)
        .executeTakeFirst();
    },

    deleteFor(ownerId, fileId) {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('files')
          .selectAll()
          .where('owner_id', '=', ownerId)
          .where('id', '=', fileId)
          .executeTakeFirst();
        if (row === undefined) return undefined;
        await trx.deleteFrom('shares').where('file_id', '=', fileId).execute();
        const deleted = await trx
          .deleteFrom('files')
          .where('owner_id', '=', ownerId)
          .where('id', '=', fileId)
          .executeTakeFirst();
        // A concurrent delete won the race: report the file as gone, like the other caller saw it.
        return deleted.numDeletedRows > 0n ? row : undefined;
      });
    },

    async recordDownload(userId, bytes, at) {
      await db
        .insertInto('transfer_events')
        .values({ id: newId(), user_id: userId, kind: 'download', bytes, created_at: at })
        .execute();
    },
  };
}
