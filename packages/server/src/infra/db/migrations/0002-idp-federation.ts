import type { Kysely, Migration } from 'kysely';

/*
 * Upstream identities (Google) of the embedded provider's accounts: one row per (provider, subject),
 * pointing at the local account it signs in to. An account created through Google has no password:
 * its `idp_accounts.password_hash` is the empty string, which no password ever matches.
 */

async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idp_federated_identities')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull().references('idp_accounts.id').onDelete('cascade'))
    .addColumn('email', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idp_federated_identities_pk', ['provider', 'subject'])
    .execute();
  await db.schema
    .createIndex('idp_federated_identities_account')
    .on('idp_federated_identities')
    .column('account_id')
    .execute();
}

async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('idp_federated_identities').ifExists().execute();
}

export const m0002IdpFederation: Migration = { up, down };
