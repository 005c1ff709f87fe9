import { Migrator, PostgresIntrospector, sql } from 'kysely';
import type { Kysely, MigrationProvider } from 'kysely';
import { DatabaseError } from './errors.js';
import { migrations } from './migrations/index.js';
import type { DB } from './schema.js';

/** Migrations compiled into the bundle, not globbed from disk, so `dist/` needs no source folder. */
const provider: MigrationProvider = {
  getMigrations: () => Promise.resolve({ ...migrations }),
};

/** Names of all migrations this build knows, oldest first. */
export function knownMigrations(): string[] {
  return Object.keys(migrations).sort();
}

/**
 * Applies every pending migration, in order, and returns the names applied (empty when up to date).
 * Safe to call from several servers starting at once: Kysely takes a lock (an advisory lock in
 * PostgreSQL) and each migration runs once. Throws `DatabaseError` naming the migration that failed.
 */
export async function migrateToLatest(db: Kysely<DB>): Promise<string[]> {
  let migrationTableSchema: string | undefined;
  // The introspector is the public sign of the dialect (pg and PGlite both use PostgreSQL's).
  if (db.introspection instanceof PostgresIntrospector) {
    // Kysely looks for its bookkeeping table in every schema unless told which one; pin it to the schema
    // the tables go to, or a second Coffer (or a test) in another schema would make it skip creation.
    const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
    const schema = rows[0]?.schema;
    if (schema === null || schema === undefined) {
      throw new DatabaseError('PostgreSQL has no current schema: check search_path');
    }
    migrationTableSchema = schema;
  }
  const migrator = new Migrator({
    db,
    provider,
    ...(migrationTableSchema === undefined ? {} : { migrationTableSchema }),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new DatabaseError(`database migration ${failed} failed`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
