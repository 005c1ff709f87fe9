import type { Kysely, Migration } from 'kysely';

/*
 * Links and file requests (issue 30, docs/key-hierarchy.md). A link grants files to whoever holds
 * its secret: the server keeps its settings, SHA-256 of the proof `A` (never `A`, the secret or a
 * password), the password's salt and KDF parameters, the owner's signed link record and, per file,
 * the file key wrapped under the link key with the metadata sealed under it. A file request lets
 * anyone with its secret upload to the owner, within its limits. Both belong to the key record they
 * were made under: deleting that key (a reset) deletes them; deleting a file deletes its link items.
 */

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('links')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('owner_key_id', 'text', (c) => c.notNull().references('user_keys.id').onDelete('cascade'))
    .addColumn('auth_key_hash', 'text', (c) => c.notNull())
    .addColumn('password_salt', 'text')
    .addColumn('password_kdf', 'text')
    .addColumn('expires_at', 'text')
    .addColumn('max_downloads', 'integer')
    .addColumn('downloads_used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('label', 'text')
    .addColumn('link_record', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema
    .createIndex('links_owner_created')
    .on('links')
    .columns(['owner_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('link_items')
    .addColumn('link_id', 'text', (c) => c.notNull().references('links.id').onDelete('cascade'))
    .addColumn('file_id', 'text', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('wrapped_key', 'text', (c) => c.notNull())
    .addColumn('encrypted_metadata', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('link_items_pk', ['link_id', 'file_id'])
    .execute();
  await db.schema.createIndex('link_items_file').on('link_items').column('file_id').execute();

  // One row per counted download, so a resumed Range download (it carries the token) is not counted again.
  await db.schema
    .createTable('link_downloads')
    .addColumn('token_hash', 'text', (c) => c.primaryKey().notNull())
    .addColumn('link_id', 'text', (c) => c.notNull().references('links.id').onDelete('cascade'))
    .addColumn('file_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('link_downloads_link').on('link_downloads').column('link_id').execute();

  await db.schema
    .createTable('file_requests')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('owner_key_id', 'text', (c) => c.notNull().references('user_keys.id').onDelete('cascade'))
    .addColumn('auth_key_hash', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('max_files', 'integer', (c) => c.notNull())
    .addColumn('max_bytes', 'bigint', (c) => c.notNull())
    // Reserved at upload start (in-progress uploads included), released on abort.
    .addColumn('files_used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes_used', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('message', 'text')
    .addColumn('signed_in_only', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('closed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema
    .createIndex('file_requests_owner_created')
    .on('file_requests')
    .columns(['owner_id', 'created_at'])
    .execute();

  // The request a file (or an upload in progress) came through; null for the owner's own uploads.
  await db.schema.alterTable('files').addColumn('request_id', 'text').execute();
  await db.schema.alterTable('uploads').addColumn('request_id', 'text').execute();
}

async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('uploads').dropColumn('request_id').execute();
  await db.schema.alterTable('files').dropColumn('request_id').execute();
  await db.schema.dropTable('file_requests').execute();
  await db.schema.dropTable('link_downloads').execute();
  await db.schema.dropTable('link_items').execute();
  await db.schema.dropTable('links').execute();
}

export const m0010LinksRequests: Migration = { up, down };
