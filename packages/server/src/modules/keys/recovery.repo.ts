import type { Kysely, Transaction } from 'kysely';
import type { DB, UserKeyRow, UserRecoveryKitRow } from '../../infra/db/schema.js';
import { scopedTo, withUserLock } from '../../infra/db/user-scope.js';

/** What a change of the whole key set checks inside its transaction: the caller's records right now. */
export type KeySetCheck<T> = (rows: UserKeyRow[]) => T;

export interface RecoveryKitsRepo {
  findFor(userId: string): Promise<UserRecoveryKitRow | undefined>;
  /**
   * Replaces the user's kit in one transaction, holding the user's lock; `check` sees the key records
   * as they are inside it and throws to refuse (nothing is written then).
   */
  replace(
    userId: string,
    kit: Omit<UserRecoveryKitRow, 'user_id'>,
    check: KeySetCheck<void>,
  ): Promise<UserRecoveryKitRow>;
  deleteFor(userId: string): Promise<boolean>;
  /**
   * Re-wraps every key record of the user in one transaction, holding the user's lock: `check` sees
   * the records inside it and returns the new wrapped keys by key id (or throws: nothing changes).
   */
  rewrapAll(
    userId: string,
    check: KeySetCheck<Map<string, { encryptedPrivateKey: string; encryptedSigningKey?: string }>>,
  ): Promise<void>;
}

/** A key record is added or deleted: the kit no longer covers the keys, so it goes. */
export async function dropKitIn(trx: Transaction<DB> | Kysely<DB>, userId: string): Promise<void> {
  await scopedTo(trx, userId).deleteFrom('user_recovery_kits').execute();
}

export function createRecoveryKitsRepo(db: Kysely<DB>): RecoveryKitsRepo {
  const keysOf = (trx: Transaction<DB>, userId: string) =>
    scopedTo(trx, userId).selectFrom('user_keys').selectAll().execute();
  return {
    findFor(userId) {
      return scopedTo(db, userId).selectFrom('user_recovery_kits').selectAll().executeTakeFirst();
    },
    replace(userId, kit, check) {
      return withUserLock(db, userId, async (own, trx) => {
        check(await keysOf(trx, userId));
        await own.deleteFrom('user_recovery_kits').execute();
        return trx
          .insertInto('user_recovery_kits')
          .values({ user_id: userId, ...kit })
          .returningAll()
          .executeTakeFirstOrThrow();
      });
    },
    async deleteFor(userId) {
      const result = await scopedTo(db, userId).deleteFrom('user_recovery_kits').executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
    async rewrapAll(userId, check) {
      await withUserLock(db, userId, async (own, trx) => {
        const wrapped = check(await keysOf(trx, userId));
        for (const [keyId, keys] of wrapped) {
          await own
            .updateTable('user_keys')
            .set({
              encrypted_private_key: keys.encryptedPrivateKey,
              ...(keys.encryptedSigningKey === undefined
                ? {}
                : { encrypted_signing_key: keys.encryptedSigningKey }),
            })
            .where('id', '=', keyId)
            .execute();
        }
      });
    },
  };
}
