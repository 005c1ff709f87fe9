import type { Kysely, Migration } from 'kysely';

/*
 * Stateless instances (issue 16): secrets a server makes for itself on first start (the demo billing
 * pages' signing key) lived in each instance's data folder, so a link signed by one instance failed on
 * another behind the same proxy. They live here instead, one row per purpose, shared by every instance on
 * the database. The number 0005 was reserved for this while 0006 landed first; `migrateToLatest` allows
 * that order.
 */

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('server_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey().notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('server_secrets').execute();
}

export const m0005ServerSecrets: Migration = { up, down };
