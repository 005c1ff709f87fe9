import { PostgresIntrospector, sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DB } from './schema.js';

/**
 * Every table Coffer's migrations create, in the order they were created, so every row's parent is
 * inserted before it. A table a later migration adds goes at the end of this list (a test checks the
 * list against the migrations); only these are backed up and restored.
 */
export const TABLE_ORDER = [
  'users',
  'user_keys',
  'contacts',
  'invitations',
  'feedback',
  'transfer_events',
  'files',
  'uploads',
  'upload_parts',
  'shares',
  'payment_events',
  'idp_accounts',
  'idp_payloads',
  'idp_keys',
  'idp_federated_identities',
  'idp_email_tokens',
  'rate_limits',
  'user_pin_sets',
  'server_secrets',
  'idp_totp',
  'idp_recovery_codes',
  'idp_passkeys',
  'idp_webauthn_challenges',
  'idp_sign_ins',
  'idp_session_cutoffs',
  'user_recovery_kits',
  'folders',
  'folder_shares',
  'links',
  'link_items',
  'link_downloads',
  'file_requests',
] as const;

/**
 * Every table in `db`'s current schema (PostgreSQL) or file (SQLite). Asked of the catalog directly:
 * Kysely's introspection reads every schema, so it sees other applications' tables and fails when
 * another schema is dropped while it runs.
 */
export async function currentSchemaTables(db: Kysely<DB>): Promise<string[]> {
  // The introspector is the public sign of the dialect (pg and PGlite both use PostgreSQL's).
  const { rows } =
    db.introspection instanceof PostgresIntrospector
      ? await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db)
      : await sql<{ name: string }>`select name from sqlite_master
          where type = 'table' and name not like 'sqlite_%'`.execute(db);
  return rows.map((row) => row.name);
}

/** Coffer's own tables (those its migrations create) that exist in `db`, parents first. */
export async function cofferTables(db: Kysely<DB>): Promise<string[]> {
  const present = new Set(await currentSchemaTables(db));
  return TABLE_ORDER.filter((name) => present.has(name));
}

/** Names of the migrations applied to `db` (none when it was never migrated). */
export async function appliedMigrations(db: Kysely<DB>): Promise<string[]> {
  if (!(await currentSchemaTables(db)).includes('kysely_migration')) return [];
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.map((row) => row.name);
}
