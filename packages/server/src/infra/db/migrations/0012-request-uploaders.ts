import type { Kysely, Migration } from 'kysely';

/*
 * File requests (issue 30), after the first cut of 0010:
 * - `uploaded_by` on files and uploads: the signed-in person who sent a file through a request that
 *   takes files from signed-in people only (null for anyone else's upload), shown to the request's
 *   owner. A plain id, no foreign key: an account deleted later leaves the file to its owner, and the
 *   owner's list then shows no sender.
 * - `file_requests.files_used` and `bytes_used` go: they were never written. A request's limits are
 *   counted from its files and its uploads in progress, in the same locked step that reserves an
 *   upload against the owner's quota (uploads.repo `reserve`), so a counter beside them had nothing
 *   to add but a second truth to keep in step.
 */

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('files').addColumn('uploaded_by', 'text').execute();
  await db.schema.alterTable('uploads').addColumn('uploaded_by', 'text').execute();
  await db.schema.alterTable('file_requests').dropColumn('files_used').execute();
  await db.schema.alterTable('file_requests').dropColumn('bytes_used').execute();
}

async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('file_requests')
    .addColumn('bytes_used', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('file_requests')
    .addColumn('files_used', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('uploads').dropColumn('uploaded_by').execute();
  await db.schema.alterTable('files').dropColumn('uploaded_by').execute();
}

export const m0012RequestUploaders: Migration = { up, down };
