import type { Kysely } from 'kysely';
import type { ContactRow, DB } from '../../infra/db/schema.js';

export interface ContactsRepo {
  listFor(userId: string): Promise<ContactRow[]>;
  findFor(userId: string, email: string): Promise<ContactRow | undefined>;
  insert(row: ContactRow): Promise<ContactRow>;
  rename(userId: string, email: string, name: string): Promise<ContactRow | undefined>;
  markInvited(userId: string, email: string, at: string): Promise<void>;
  deleteFor(userId: string, email: string): Promise<boolean>;
}

export function createContactsRepo(db: Kysely<DB>): ContactsRepo {
  return {
    listFor(userId) {
      return db
        .selectFrom('contacts')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('name')
        .orderBy('email')
        .execute();
    },
    findFor(userId, email) {
      return db
        .selectFrom('contacts')
        .selectAll()
        .where('user_id', '=', userId)
        .where('email', '=', email)
        .executeTakeFirst();
    },
    insert(row) {
      return db.insertInto('contacts').values(row).returningAll().executeTakeFirstOrThrow();
    },
    rename(userId, email, name) {
      return db
        .updateTable('contacts')
        .set({ name })
        .where('user_id', '=', userId)
        .where('email', '=', email)
        .returningAll()
        .executeTakeFirst();
    },
    async markInvited(userId, email, at) {
      await db
        .updateTable('contacts')
        .set({ invited_at: at })
        .where('user_id', '=', userId)
        .where('email', '=', email)
        .execute();
    },
    async deleteFor(userId, email) {
      const result = await db
        .deleteFrom('contacts')
        .where('user_id', '=', userId)
        .where('email', '=', email)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}
