import { sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';

/*
 * Second factors and sign-in records of the embedded provider (issue 29, item 4):
 *
 * - `idp_totp`: one authenticator app per account. The secret is AES-256-GCM-encrypted under a key kept in
 *   `server_secrets` (`secret_enc`); `enabled_at` stays null until the person confirms a code, and
 *   `last_step` is the newest 30-second step a code was accepted for, so a code cannot be used twice.
 * - `idp_recovery_codes`: ten one-time codes per account, stored as SHA-256 (the codes carry 80 random
 *   bits, so a plain hash is enough); `used_at` marks a spent one.
 * - `idp_passkeys`: WebAuthn credentials (id and COSE public key in base64url, the signature counter).
 * - `idp_webauthn_challenges`: issued challenges, deleted when used (single use) or when expired.
 * - `idp_sign_ins`: one row per provider session (its `uid`), with the browser it came from (a hash of a
 *   device cookie), the user agent and when it was last seen, for the sessions list and new-device mail.
 * - `idp_session_cutoffs`: "sign out everywhere" — access tokens of the account issued before
 *   `valid_after` are refused by the API.
 */

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idp_totp')
    .addColumn('account_id', 'text', (c) =>
      c.primaryKey().notNull().references('idp_accounts.id').onDelete('cascade'),
    )
    .addColumn('secret_enc', 'text', (c) => c.notNull())
    .addColumn('enabled_at', 'text')
    .addColumn('last_step', 'bigint')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('idp_recovery_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey().notNull())
    .addColumn('account_id', 'text', (c) => c.notNull().references('idp_accounts.id').onDelete('cascade'))
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('idp_recovery_codes_account')
    .on('idp_recovery_codes')
    .column('account_id')
    .execute();

  await db.schema
    .createTable('idp_passkeys')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('account_id', 'text', (c) => c.notNull().references('idp_accounts.id').onDelete('cascade'))
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull().check(sql`counter >= 0`))
    .addColumn('transports', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('idp_passkeys_account').on('idp_passkeys').column('account_id').execute();

  await db.schema
    .createTable('idp_webauthn_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('binding', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('idp_sign_ins')
    .addColumn('session_uid', 'text', (c) => c.primaryKey().notNull())
    .addColumn('account_id', 'text', (c) => c.notNull().references('idp_accounts.id').onDelete('cascade'))
    .addColumn('device_hash', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('idp_sign_ins_account_device')
    .on('idp_sign_ins')
    .columns(['account_id', 'device_hash'])
    .execute();

  await db.schema
    .createTable('idp_session_cutoffs')
    .addColumn('account_id', 'text', (c) =>
      c.primaryKey().notNull().references('idp_accounts.id').onDelete('cascade'),
    )
    .addColumn('valid_after', 'text', (c) => c.notNull())
    .execute();
}

async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'idp_session_cutoffs',
    'idp_sign_ins',
    'idp_webauthn_challenges',
    'idp_passkeys',
    'idp_recovery_codes',
    'idp_totp',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}

export const m0007IdpFactors: Migration = { up, down };
