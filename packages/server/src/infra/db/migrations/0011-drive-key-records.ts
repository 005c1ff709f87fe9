import type { Kysely, Migration } from 'kysely';

/*
 * The drive key record (issue 31, docs/encryption.md section 17): the user's own signature on the
 * wrapped drive key, stored beside it. RSA-OAEP wraps to a public key, so without it a server could
 * plant a drive key of its choosing; clients refuse a wrap without a valid record. Set together with
 * `wrapped_drive_key`, once. No release stored a drive key before this column (issue 31 was
 * unreleased), so no row needs one made up.
 */

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_keys').addColumn('drive_key_record', 'text').execute();
}

async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_keys').dropColumn('drive_key_record').execute();
}

export const m0011DriveKeyRecords: Migration = { up, down };
