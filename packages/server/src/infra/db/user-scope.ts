import { sql } from 'kysely';
import type {
  DeleteQueryBuilder,
  DeleteResult,
  Kysely,
  SelectQueryBuilder,
  Transaction,
  UpdateQueryBuilder,
  UpdateResult,
} from 'kysely';
import type { DB } from './schema.js';

/** Each per-user table and the column naming the user it belongs to. */
export const OWNER_COLUMN = {
  contacts: 'user_id',
  file_requests: 'owner_id',
  files: 'owner_id',
  folders: 'owner_id',
  folder_shares: 'owner_id',
  invitations: 'user_id',
  links: 'owner_id',
  shares: 'owner_id',
  transfer_events: 'user_id',
  uploads: 'user_id',
  user_keys: 'user_id',
  user_pin_sets: 'user_id',
  user_recovery_kits: 'user_id',
} as const satisfies Partial<Record<keyof DB, string>>;

export type UserTable = keyof typeof OWNER_COLUMN;

/**
 * Queries of one user's rows. Every repository reads and writes per-user rows through this, so "scoped
 * to the caller" is written once: a query built here cannot reach another user's rows.
 */
export interface UserScope {
  readonly userId: string;
  selectFrom<T extends UserTable>(table: T): ReturnType<typeof selectOwn<T>>;
  updateTable<T extends UserTable>(table: T): ReturnType<typeof updateOwn<T>>;
  deleteFrom<T extends UserTable>(table: T): ReturnType<typeof deleteOwn<T>>;
}

/*
 * Kysely cannot type a `where` on a table picked by a generic (the builder type distributes over the
 * union of tables), so the filter is a plain SQL expression and the builders are typed by hand. The map
 * above is what keeps the column right; every owner column is a text id.
 */
const ownedBy = (table: UserTable, userId: string) =>
  sql<boolean>`${sql.ref(`${table}.${OWNER_COLUMN[table]}`)} = ${userId}`;

function selectOwn<T extends UserTable>(db: Kysely<DB>, table: T, userId: string) {
  return (db.selectFrom(table) as unknown as SelectQueryBuilder<DB, T, object>).where(ownedBy(table, userId));
}
function updateOwn<T extends UserTable>(db: Kysely<DB>, table: T, userId: string) {
  return (db.updateTable(table) as unknown as UpdateQueryBuilder<DB, T, T, UpdateResult>).where(
    ownedBy(table, userId),
  );
}
function deleteOwn<T extends UserTable>(db: Kysely<DB>, table: T, userId: string) {
  return (db.deleteFrom(table) as unknown as DeleteQueryBuilder<DB, T, DeleteResult>).where(
    ownedBy(table, userId),
  );
}

export function scopedTo(db: Kysely<DB>, userId: string): UserScope {
  return {
    userId,
    selectFrom: (table) => selectOwn(db, table, userId),
    updateTable: (table) => updateOwn(db, table, userId),
    deleteFrom: (table) => deleteOwn(db, table, userId),
  };
}

/** The user row is gone (an account deleted while one of its requests ran). */
export class UserGoneError extends Error {
  constructor(readonly userId: string) {
    super(`User ${userId} no longer exists`);
    this.name = 'UserGoneError';
  }
}

/**
 * Runs `fn` in a transaction that holds the user's lock, so a plan limit is checked and its reservation
 * written as one step: two requests of the same user that both check "under the limit" can never both
 * insert. Every plan-limit reservation (uploads, downloads, contacts, shares) goes through here.
 *
 * The lock is a write to the user's row, done first: on PostgreSQL it is a row lock that every other
 * reservation of this user waits for (other users are not held up); on SQLite the first write takes the
 * database's write lock before anything is read, so no other writer, in this process or another, can
 * change what the check reads (and the read cannot turn stale, SQLITE_BUSY_SNAPSHOT).
 */
export function withUserLock<T>(
  db: Kysely<DB>,
  userId: string,
  fn: (scope: UserScope, trx: Transaction<DB>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const locked = await trx
      .updateTable('users')
      .set((eb) => ({ id: eb.ref('id') }))
      .where('id', '=', userId)
      .executeTakeFirst();
    if (locked.numUpdatedRows === 0n) throw new UserGoneError(userId);
    return fn(scopedTo(trx, userId), trx);
  });
}
