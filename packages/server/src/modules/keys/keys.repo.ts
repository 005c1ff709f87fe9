import type { Kysely } from 'kysely';
import type { DB, UserKeyRow } from '../../infra/db/schema.js';

export interface KeysRepo {
  insert(row: UserKeyRow): Promise<UserKeyRow>;
  /** Newest first. */
  listFor(userId: string): Promise<UserKeyRow[]>;
  newestFor(userId: string): Promise<UserKeyRow | undefined>;
  findFor(userId: string, keyId: string): Promise<UserKeyRow | undefined>;
  deleteFor(userId: string, keyId: string): Promise<boolean>;
  updateWrappedKey(
    userId: string,
    keyId: string,
    encryptedPrivateKey: string,
  ): Promise<UserKeyRow | undefined>;
}

export function createKeysRepo(db: Kysely<DB>): KeysRepo {
  const byUser = (userId: string) =>
    db
      .selectFrom('user_keys')
      .selectAll()
      .where('user_id', '=', userId)
      // Ties on the timestamp are broken by id so "newest" is stable.
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc');

  return {
    async insert(row) {
      return db.insertInto('user_keys').values(row).returningAll().executeTakeFirstOrThrow();
    },
    listFor(userId) {
      return byUser(userId).execute();
    },
    newestFor(userId) {
      return byUser(userId).limit(1).executeTakeFirst();
    },
    findFor(userId, keyId) {
      return db
        .selectFrom('user_keys')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', '=', keyId)
        .executeTakeFirst();
    },
    async deleteFor(userId, keyId) {
      const result = await db
        .deleteFrom('user_keys')
        .where('user_id', '=', userId)
        .where('id', '=', keyId)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
    updateWrappedKey(userId, keyId, encryptedPrivateKey) {
      return db
        .updateTable('user_keys')
        .set({ encrypted_private_key: encryptedPrivateKey })
        .where('user_id', '=', userId)
        .where('id', '=', keyId)
        .returningAll()
        .executeTakeFirst();
    },
  };
}
