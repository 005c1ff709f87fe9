import type { Kysely } from 'kysely';
import type { ContactRow, DB } from '../../infra/db/schema.js';
import { scopedTo, withUserLock } from '../../infra/db/user-scope.js';

export interface ContactsRepo {
  listFor(userId: string): Promise<ContactRow[]>;
  findFor(userId: string, email: string): Promise<ContactRow | undefined>;
  /**
   * Inserts `row` if its user has fewer than `max` contacts: check and insert are one step under the
   * user's lock. Null when the limit is reached.
   */
  insertWithinLimit(row: ContactRow, max: number): Promise<ContactRow | null>;
  rename(userId: string, email: string, name: string): Promise<ContactRow | undefined>;
  markInvited(userId: string, email: string, at: string): Promise<void>;
  deleteFor(userId: string, email: string): Promise<boolean>;
}

export function createContactsRepo(db: Kysely<DB>): ContactsRepo {
  const own = (userId: string) => scopedTo(db, userId);
  return {
    listFor(userId) {
      return own(userId).selectFrom('contacts').selectAll().orderBy('name').orderBy('email').execute();
    },
    findFor(userId, email) {
      return own(userId).selectFrom('contacts').selectAll().where('email', '=', email).executeTakeFirst();
    },
    insertWithinLimit(row, max) {
      return withUserLock(db, row.user_id, async (scope, trx) => {
        const counted = await scope
          .selectFrom('contacts')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .executeTakeFirst();
        if (Number(counted?.n ?? 0) >= max) return null;
        return trx.insertInto('contacts').values(row).returningAll().executeTakeFirstOrThrow();
      });
    },
    rename(userId, email, name) {
      return own(userId)
        .updateTable('contacts')
        .set({ name })
        .where('email', '=', email)
        .returningAll()
        .executeTakeFirst();
    },
    async markInvited(userId, email, at) {
      await own(userId).updateTable('contacts').set({ invited_at: at }).where('email', '=', email).execute();
    },
    async deleteFor(userId, email) {
      const result = await own(userId).deleteFrom('contacts').where('email', '=', email).executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}
