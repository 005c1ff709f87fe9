import type { Kysely, Migration } from 'kysely';

/*
 * Large lists (issue 14): the file list and the shared-with-me list are read newest first, a batch or a
 * page at a time, after a cursor (timestamp, id). The old indexes stopped at the timestamp, so every page
 * of PostgreSQL's plan read all of the user's remaining rows and sorted them (10,000 files: 20 batches of
 * the unpaged list read ~100,000 rows), and SQLite sorted ties in a temporary b-tree. With the id in the
 * index, each page is one range scan of its own rows, already in order. The new indexes start with the
 * old ones' columns, which they replace.
 */

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('files_owner_uploaded_id')
    .on('files')
    .columns(['owner_id', 'uploaded_at', 'id'])
    .execute();
  await db.schema.dropIndex('files_owner_uploaded').execute();
  await db.schema
    .createIndex('shares_recipient_created_file')
    .on('shares')
    .columns(['recipient_id', 'created_at', 'file_id'])
    .execute();
  await db.schema.dropIndex('shares_recipient').execute();
}

async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('shares_recipient')
    .on('shares')
    .columns(['recipient_id', 'created_at'])
    .execute();
  await db.schema.dropIndex('shares_recipient_created_file').execute();
  await db.schema
    .createIndex('files_owner_uploaded')
    .on('files')
    .columns(['owner_id', 'uploaded_at'])
    .execute();
  await db.schema.dropIndex('files_owner_uploaded_id').execute();
}

export const m0006ListIndexes: Migration = { up, down };
