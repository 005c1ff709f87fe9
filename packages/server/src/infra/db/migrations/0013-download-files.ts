import type { Kysely, Migration } from 'kysely';

/*
 * `transfer_events.file_id`: the file a counted download was of (null for uploads and for downloads
 * counted before this migration). A download that does not start at byte 0 is free only as the
 * resume of a download of the same file the same person started recently
 * (`downloads.service.ts`); before, any such request was free, so `Range: bytes=1-` took a whole
 * file without ever counting against the monthly download limit.
 */

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('transfer_events').addColumn('file_id', 'text').execute();
  await db.schema
    .createIndex('transfer_events_user_file_created')
    .on('transfer_events')
    .columns(['user_id', 'file_id', 'created_at'])
    .execute();
}

async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('transfer_events_user_file_created').execute();
  await db.schema.alterTable('transfer_events').dropColumn('file_id').execute();
}

export const m0013DownloadFiles: Migration = { up, down };
