import type { Kysely } from 'kysely';
import type { Page } from '../../http/page-cursor.js';
import type { DB, FileRow } from '../../infra/db/schema.js';
import { scopedTo, withUserLock } from '../../infra/db/user-scope.js';
import { newId } from '../../infra/db/values.js';

/** What a file list shows of a row (not its key, manifest or object key). */
export type FileListRow = Pick<
  FileRow,
  'id' | 'owner_id' | 'name' | 'content_type' | 'size' | 'is_encrypted' | 'uploaded_at'
>;

/** Files, always scoped to their owner; shares are in the shares module. */
export interface FilesRepo {
  /**
   * The columns of the list, newest first (ties by id); at most `page.limit` after `page.after`, or all
   * without a page. One range scan of `files_owner_uploaded_id` per page.
   */
  listFor(ownerId: string, page?: Page): Promise<FileListRow[]>;
  findFor(ownerId: string, fileId: string): Promise<FileRow | undefined>;
  /** Removes the file row and its shares in one transaction; returns the removed row. */
  deleteFor(ownerId: string, fileId: string): Promise<FileRow | undefined>;
  /**
   * Counts one download against `userId`'s monthly limit if fewer than `limit` were counted since
   * `since`: check and count are one step under the user's lock. Returns the count's id (to release it
   * if the download cannot start), or null when the limit is reached.
   */
  reserveDownload(
    userId: string,
    window: { since: string; limit: number },
    bytes: number,
    at: string,
  ): Promise<string | null>;
  /** Takes back a download counted by {@link reserveDownload} that never started. */
  releaseDownload(userId: string, reservationId: string): Promise<void>;
}

export function createFilesRepo(db: Kysely<DB>): FilesRepo {
  return {
    listFor(ownerId, page) {
      let query = scopedTo(db, ownerId)
        .selectFrom('files')
        .select(['id', 'owner_id', 'name', 'content_type', 'size', 'is_encrypted', 'uploaded_at'])
        // Ties on the timestamp are broken by id so the order is stable and a cursor is exact.
        .orderBy('uploaded_at', 'desc')
        .orderBy('id', 'desc');
      if (page === undefined) return query.execute();
      const after = page.after;
      if (after !== undefined) {
        // A row comparison, which both databases answer with a range of the index.
        query = query.where((eb) => eb(eb.refTuple('uploaded_at', 'id'), '<', eb.tuple(after.at, after.id)));
      }
      return query.limit(page.limit).execute();
    },

    findFor(ownerId, fileId) {
      return scopedTo(db, ownerId)
        .selectFrom('files')
        .selectAll()
        .where('id', '=', fileId)
        .executeTakeFirst();
    },

    deleteFor(ownerId, fileId) {
      return db.transaction().execute(async (trx) => {
        const own = scopedTo(trx, ownerId);
        const row = await own.selectFrom('files').selectAll().where('id', '=', fileId).executeTakeFirst();
        if (row === undefined) return undefined;
        await own.deleteFrom('shares').where('file_id', '=', fileId).execute();
        const deleted = await own.deleteFrom('files').where('id', '=', fileId).executeTakeFirst();
        // A concurrent delete won the race: report the file as gone, like the other caller saw it.
        return deleted.numDeletedRows > 0n ? row : undefined;
      });
    },

    reserveDownload(userId, window, bytes, at) {
      return withUserLock(db, userId, async (own, trx) => {
        const counted = await own
          .selectFrom('transfer_events')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .where('kind', '=', 'download')
          .where('created_at', '>=', window.since)
          .executeTakeFirst();
        if (Number(counted?.n ?? 0) >= window.limit) return null;
        const id = newId();
        await trx
          .insertInto('transfer_events')
          .values({ id, user_id: userId, kind: 'download', bytes, created_at: at })
          .execute();
        return id;
      });
    },

    async releaseDownload(userId, reservationId) {
      await scopedTo(db, userId).deleteFrom('transfer_events').where('id', '=', reservationId).execute();
    },
  };
}
