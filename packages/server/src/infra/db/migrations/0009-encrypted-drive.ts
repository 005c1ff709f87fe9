import type { Kysely, Migration } from 'kysely';

/*
 * The encrypted drive (issue 31, docs/key-hierarchy.md). Files gain their node: a client-chosen id
 * (unique per owner), the parent folder (null at the top), the key wrapped under that parent, the
 * sealed metadata and the owner's signed node record; a file with sealed metadata keeps the name
 * `encrypted`. Uploads carry the node until the file is recorded. Key records gain the drive key
 * wrapped to them. Folders are nodes of their own, scoped to their owner (the owner and the node id
 * are the key: ids are chosen by clients), and a folder share gives one recipient the folder key.
 */

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_keys').addColumn('wrapped_drive_key', 'text').execute();

  for (const column of ['node_id', 'parent_node_id', 'wrapped_key', 'encrypted_metadata', 'node_record']) {
    await db.schema.alterTable('files').addColumn(column, 'text').execute();
  }
  // Several rows without a node (null) are allowed by both databases' unique indexes.
  await db.schema
    .createIndex('files_owner_node')
    .unique()
    .on('files')
    .columns(['owner_id', 'node_id'])
    .execute();
  await db.schema
    .createIndex('files_owner_parent')
    .on('files')
    .columns(['owner_id', 'parent_node_id'])
    .execute();

  // JSON text of the upload's FileNode, handed on to the file.
  await db.schema.alterTable('uploads').addColumn('node', 'text').execute();

  await db.schema
    .createTable('folders')
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('node_id', 'text', (c) => c.notNull())
    .addColumn('parent_node_id', 'text')
    .addColumn('wrapped_key', 'text', (c) => c.notNull())
    .addColumn('encrypted_metadata', 'text', (c) => c.notNull())
    .addColumn('node_record', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('folders_pk', ['owner_id', 'node_id'])
    .execute();
  await db.schema
    .createIndex('folders_owner_parent')
    .on('folders')
    .columns(['owner_id', 'parent_node_id'])
    .execute();

  await db.schema
    .createTable('folder_shares')
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('node_id', 'text', (c) => c.notNull())
    .addColumn('recipient_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('recipient_email', 'text', (c) => c.notNull())
    .addColumn('encrypted_folder_key', 'text', (c) => c.notNull())
    .addColumn('key_version', 'text', (c) => c.notNull())
    .addColumn('grant_json', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('folder_shares_pk', ['owner_id', 'node_id', 'recipient_id'])
    .addForeignKeyConstraint(
      'folder_shares_folder',
      ['owner_id', 'node_id'],
      'folders',
      ['owner_id', 'node_id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('folder_shares_recipient_created')
    .on('folder_shares')
    .columns(['recipient_id', 'created_at'])
    .execute();
}

async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('folder_shares').ifExists().execute();
  await db.schema.dropTable('folders').ifExists().execute();
  await db.schema.alterTable('uploads').dropColumn('node').execute();
  await db.schema.dropIndex('files_owner_parent').ifExists().execute();
  await db.schema.dropIndex('files_owner_node').ifExists().execute();
  for (const column of ['node_record', 'encrypted_metadata', 'wrapped_key', 'parent_node_id', 'node_id']) {
    await db.schema.alterTable('files').dropColumn(column).execute();
  }
  await db.schema.alterTable('user_keys').dropColumn('wrapped_drive_key').execute();
}

export const m0009EncryptedDrive: Migration = { up, down };
