import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../infra/db/errors.js';
import type { DB } from '../../infra/db/schema.js';
import { scopedTo } from '../../infra/db/user-scope.js';
import { nowIso } from '../../infra/db/values.js';

export interface PinsRepo {
  find(userId: string): Promise<{ pinSet: string; version: number } | undefined>;
  /**
   * Stores `pinSet` at `version` if the stored version is still `previousVersion` (null: none stored
   * yet). False when another write came first. One statement each way, so two devices writing at once
   * cannot both succeed.
   */
  replace(
    userId: string,
    pinSet: string,
    version: number,
    previousVersion: number | null,
    now: Date,
  ): Promise<boolean>;
  /** Forgets the user's pin set (their keys were replaced: it can never be opened again). */
  deleteFor(userId: string): Promise<void>;
}

export function createPinsRepo(db: Kysely<DB>): PinsRepo {
  return {
    find(userId) {
      return scopedTo(db, userId)
        .selectFrom('user_pin_sets')
        .select(['pin_set as pinSet', 'version'])
        .executeTakeFirst();
    },

    async replace(userId, pinSet, version, previousVersion, now) {
      const at = nowIso(now);
      if (previousVersion === null) {
        try {
          await db
            .insertInto('user_pin_sets')
            .values({ user_id: userId, pin_set: pinSet, version, updated_at: at })
            .execute();
          return true;
        } catch (error) {
          if (isUniqueViolation(error)) return false;
          throw error;
        }
      }
      const result = await scopedTo(db, userId)
        .updateTable('user_pin_sets')
        .set({ pin_set: pinSet, version, updated_at: at })
        .where('version', '=', previousVersion)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async deleteFor(userId) {
      await scopedTo(db, userId).deleteFrom('user_pin_sets').execute();
    },
  };
}
