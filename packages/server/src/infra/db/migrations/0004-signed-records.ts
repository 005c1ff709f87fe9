import type { Kysely, Migration } from 'kysely';

/*
 * Keys you can check (issue 13). The server stores, unchanged, what clients sign and seal:
 *
 * - user_keys: the signing public key, the password-wrapped signing private key and the key binding
 *   (the signing key's signature over both public keys, the email and the key id). Null on records
 *   made before signing keys; a record gets them once (PUT /users/keys/:keyId/signing).
 * - uploads/files: the owner's signed file manifest; shares: the owner's signed share grant. Null for
 *   files and shares from before (the app shows them as unsigned).
 * - user_pin_sets: each user's sealed pin set (contact key fingerprints, encrypted and signed by the
 *   user), with the version the client put in it, so a stale write is refused.
 */

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_keys').addColumn('signing_public_key', 'text').execute();
  await db.schema.alterTable('user_keys').addColumn('encrypted_signing_key', 'text').execute();
  await db.schema.alterTable('user_keys').addColumn('key_binding', 'text').execute();
  await db.schema.alterTable('uploads').addColumn('manifest', 'text').execute();
  await db.schema.alterTable('files').addColumn('manifest', 'text').execute();
  await db.schema.alterTable('shares').addColumn('share_grant', 'text').execute();
  await db.schema
    .createTable('user_pin_sets')
    .addColumn('user_id', 'text', (c) => c.primaryKey().notNull().references('users.id').onDelete('cascade'))
    .addColumn('pin_set', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_pin_sets').ifExists().execute();
  await db.schema.alterTable('shares').dropColumn('share_grant').execute();
  await db.schema.alterTable('files').dropColumn('manifest').execute();
  await db.schema.alterTable('uploads').dropColumn('manifest').execute();
  await db.schema.alterTable('user_keys').dropColumn('key_binding').execute();
  await db.schema.alterTable('user_keys').dropColumn('encrypted_signing_key').execute();
  await db.schema.alterTable('user_keys').dropColumn('signing_public_key').execute();
}

export const m0004SignedRecords: Migration = { up, down };
