import { sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';

/*
 * Portable across SQLite and PostgreSQL: text ids and ISO timestamps, integer 0/1 booleans, JSON as
 * text, byte counts as `bigint` (int8 in PostgreSQL; INTEGER affinity, 64-bit, in SQLite). Enum-like
 * text columns carry no CHECK: SQLite cannot alter a constraint without rebuilding the table, so the
 * allowed values live in the TypeScript types (schema.ts) and the services.
 *
 * A migration is frozen once released: it takes `Kysely<unknown>` so it never depends on today's
 * schema types, and a change is always a new migration.
 */

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('name', 'text')
    .addColumn('country', 'text')
    .addColumn('idp', 'text')
    .addColumn('tier', 'text', (c) => c.notNull().defaultTo('Free'))
    .addColumn('current_period_start', 'text', (c) => c.notNull())
    .addColumn('current_period_end', 'text')
    .addColumn('stripe_customer_id', 'text')
    .addColumn('stripe_subscription_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('users_issuer_subject_unique', ['issuer', 'subject'])
    .execute();
  await db.schema
    .createIndex('users_email_unique')
    .on('users')
    .column('email')
    .unique()
    .where(sql.ref('email'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('users_stripe_customer_unique')
    .on('users')
    .column('stripe_customer_id')
    .unique()
    .where(sql.ref('stripe_customer_id'), 'is not', null)
    .execute();

  await db.schema
    .createTable('user_keys')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('encrypted_private_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('user_keys_user_created')
    .on('user_keys')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('contacts')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('image', 'text')
    .addColumn('invited_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('contacts_pk', ['user_id', 'email'])
    .execute();

  await db.schema
    .createTable('invitations')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('to_email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('invitations_user_created')
    .on('invitations')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('feedback')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('user_email', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('feedback_created').on('feedback').column('created_at').execute();
  // Postgres does not index foreign keys by itself; `set null` on user delete would scan the table.
  await db.schema.createIndex('feedback_user').on('feedback').column('user_id').execute();

  await db.schema
    .createTable('transfer_events')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull().check(sql`bytes >= 0`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('transfer_events_user_kind_created')
    .on('transfer_events')
    .columns(['user_id', 'kind', 'created_at'])
    .execute();

  await db.schema
    .createTable('files')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull().check(sql`size >= 0`))
    .addColumn('stored_size', 'bigint', (c) => c.notNull().check(sql`stored_size >= 0`))
    .addColumn('is_encrypted', 'integer', (c) => c.notNull().check(sql`is_encrypted in (0, 1)`))
    .addColumn('encryption_info', 'text')
    .addColumn('object_key', 'text', (c) => c.notNull().unique())
    .addColumn('uploaded_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('files_owner_uploaded')
    .on('files')
    .columns(['owner_id', 'uploaded_at'])
    .execute();

  await db.schema
    .createTable('uploads')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull().check(sql`size >= 0`))
    .addColumn('stored_size', 'bigint', (c) => c.notNull().check(sql`stored_size >= 0`))
    .addColumn('is_encrypted', 'integer', (c) => c.notNull().check(sql`is_encrypted in (0, 1)`))
    .addColumn('encryption_info', 'text')
    .addColumn('object_key', 'text', (c) => c.notNull().unique())
    .addColumn('storage_upload_id', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('parts', 'integer', (c) => c.notNull().check(sql`parts >= 1`))
    .addColumn('file_id', 'text', (c) => c.references('files.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('uploads_user_created')
    .on('uploads')
    .columns(['user_id', 'created_at'])
    .execute();
  // The janitor that aborts stale multipart uploads scans by status and age.
  await db.schema
    .createIndex('uploads_status_updated')
    .on('uploads')
    .columns(['status', 'updated_at'])
    .execute();
  await db.schema.createIndex('uploads_file').on('uploads').column('file_id').execute();

  await db.schema
    .createTable('upload_parts')
    .addColumn('upload_id', 'text', (c) => c.notNull().references('uploads.id').onDelete('cascade'))
    .addColumn('part_number', 'integer', (c) => c.notNull().check(sql`part_number >= 1`))
    .addColumn('etag', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull().check(sql`size >= 0`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('upload_parts_pk', ['upload_id', 'part_number'])
    .execute();

  await db.schema
    .createTable('shares')
    .addColumn('file_id', 'text', (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('owner_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('recipient_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('recipient_email', 'text', (c) => c.notNull())
    .addColumn('encrypted_file_key', 'text', (c) => c.notNull())
    .addColumn('key_version', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('shares_pk', ['file_id', 'recipient_id'])
    .execute();
  await db.schema
    .createIndex('shares_recipient')
    .on('shares')
    .columns(['recipient_id', 'created_at'])
    .execute();
  await db.schema.createIndex('shares_owner').on('shares').column('owner_id').execute();

  await db.schema
    .createTable('payment_events')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('processed_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('idp_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('country', 'text')
    .addColumn('email_verified', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`email_verified in (0, 1)`),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('idp_payloads')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'text')
    .addColumn('user_code', 'text')
    .addColumn('uid', 'text')
    .addColumn('expires_at', 'text')
    .addColumn('consumed_at', 'text')
    .addPrimaryKeyConstraint('idp_payloads_pk', ['model', 'id'])
    .execute();
  await db.schema.createIndex('idp_payloads_grant').on('idp_payloads').column('grant_id').execute();
  await db.schema.createIndex('idp_payloads_uid').on('idp_payloads').columns(['model', 'uid']).execute();
  await db.schema
    .createIndex('idp_payloads_user_code')
    .on('idp_payloads')
    .columns(['model', 'user_code'])
    .execute();
  await db.schema.createIndex('idp_payloads_expires').on('idp_payloads').column('expires_at').execute();

  await db.schema
    .createTable('idp_keys')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('purpose', 'text', (c) => c.notNull().defaultTo('signing'))
    .addColumn('jwk', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

async function down(db: Kysely<unknown>): Promise<void> {
  // Children before parents, so foreign keys never block a drop.
  for (const table of [
    'idp_keys',
    'idp_payloads',
    'idp_accounts',
    'payment_events',
    'shares',
    'upload_parts',
    'uploads',
    'files',
    'transfer_events',
    'feedback',
    'invitations',
    'contacts',
    'user_keys',
    'users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}

export const m0001Initial: Migration = { up, down };
