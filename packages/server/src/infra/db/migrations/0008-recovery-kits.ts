import type { Kysely, Migration } from 'kysely';

/*
 * Recovery kits (issue 29): each user's private keys wrapped a second time, under a key derived from
 * 24 words only the person holds. One kit per user: a new kit replaces the row (the old wraps are
 * gone), and adding or deleting a key record deletes it (it no longer covers the keys). `wraps` is the
 * JSON text of the kit's wraps, one per key record, opaque to the server.
 */

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_recovery_kits')
    .addColumn('user_id', 'text', (c) => c.primaryKey().notNull().references('users.id').onDelete('cascade'))
    .addColumn('kit_id', 'text', (c) => c.notNull())
    .addColumn('wraps', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_recovery_kits').ifExists().execute();
}

export const m0008RecoveryKits: Migration = { up, down };
