import type { Kysely } from 'kysely';
import type { DB, FeedbackRow } from '../../infra/db/schema.js';

export interface FeedbackRepo {
  insert(row: FeedbackRow): Promise<void>;
  /** Newest first. */
  list(): Promise<FeedbackRow[]>;
  delete(id: string): Promise<boolean>;
}

export function createFeedbackRepo(db: Kysely<DB>): FeedbackRepo {
  return {
    async insert(row) {
      await db.insertInto('feedback').values(row).execute();
    },
    list() {
      return db.selectFrom('feedback').selectAll().orderBy('created_at', 'desc').orderBy('id').execute();
    },
    async delete(id) {
      const result = await db.deleteFrom('feedback').where('id', '=', id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}
