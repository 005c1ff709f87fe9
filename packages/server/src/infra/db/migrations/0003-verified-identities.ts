import { sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';

/*
 * Verified identities (issue 12).
 *
 * - `idp_email_tokens`: single-use, expiring links mailed by the embedded provider (confirm an address,
 *   reset a password). Only the SHA-256 of a token is stored, so a database reader cannot use one.
 * - `idp_payloads.account_id`: which account a session, grant, code or refresh token belongs to, so a
 *   password reset (or a confirmed re-sign-up) can end every sign-in of that account.
 * - `rate_limits`: attempt counters shared by every server on the database (keys are hashed).
 * - Local accounts made before this migration were marked verified without any proof: they confirm
 *   their address again (Google-made accounts were verified by Google and stay verified).
 */

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idp_email_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('verify', 'reset')`))
    .addColumn('account_id', 'text', (c) => c.notNull().references('idp_accounts.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('pending_password_hash', 'text')
    .addColumn('pending_name', 'text')
    .addColumn('pending_country', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema
    .createIndex('idp_email_tokens_account')
    .on('idp_email_tokens')
    .column('account_id')
    .execute();

  await db.schema.alterTable('idp_payloads').addColumn('account_id', 'text').execute();
  await db.schema.createIndex('idp_payloads_account').on('idp_payloads').column('account_id').execute();
  const typed = db as Kysely<{
    idp_payloads: { model: string; id: string; payload: string; account_id: string | null };
    idp_accounts: { email_verified: number; password_hash: string };
  }>;
  const rows = await typed
    .selectFrom('idp_payloads')
    .select(['model', 'id', 'payload'])
    .where('model', 'in', ['Session', 'Grant', 'RefreshToken', 'AuthorizationCode', 'AccessToken'])
    .execute();
  for (const row of rows) {
    let accountId: unknown;
    try {
      accountId = (JSON.parse(row.payload) as { accountId?: unknown }).accountId;
    } catch {
      continue;
    }
    if (typeof accountId !== 'string') continue;
    await typed
      .updateTable('idp_payloads')
      .set({ account_id: accountId })
      .where('model', '=', row.model)
      .where('id', '=', row.id)
      .execute();
  }

  await typed
    .updateTable('idp_accounts')
    .set({ email_verified: 0 })
    .where('password_hash', '!=', '')
    .execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey().notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('window_ends_at', 'text', (c) => c.notNull())
    .addColumn('blocked_until', 'text')
    .execute();
  await db.schema.createIndex('rate_limits_window').on('rate_limits').column('window_ends_at').execute();
}

async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rate_limits').ifExists().execute();
  await db.schema.dropIndex('idp_payloads_account').ifExists().execute();
  await db.schema.alterTable('idp_payloads').dropColumn('account_id').execute();
  await db.schema.dropTable('idp_email_tokens').ifExists().execute();
}

export const m0003VerifiedIdentities: Migration = { up, down };
