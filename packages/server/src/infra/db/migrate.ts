import { Migrator, PostgresIntrospector, sql } from 'kysely';
import type { Kysely, Migration, MigrationProvider } from 'kysely';
import { DatabaseError } from './errors.js';
import { migrations } from './migrations/index.js';
import type { DB } from './schema.js';

/**
 * Runs a migration in a transaction when Kysely has not opened one. Kysely wraps migrations in a
 * transaction only where it believes DDL is transactional (PostgreSQL); SQLite's DDL is too, and without
 * this a migration failing half-way would leave tables behind that make every later start fail.
 */
function inTransaction(migration: Migration): Migration {
  const wrap =
    (step: (db: Kysely<unknown>) => Promise<void>) =>
    (db: Kysely<unknown>): Promise<void> =>
      db.isTransaction ? step(db) : db.transaction().execute((trx) => step(trx));
  const up = wrap((db) => migration.up(db));
  if (migration.down === undefined) return { up };
  const down = migration.down.bind(migration);
  return { up, down: wrap((db) => down(db)) };
}

const managesOwnTransaction = new WeakSet<Migration>();

/**
 * Marks a migration that must run outside a transaction on SQLite: a table rebuild (SQLite's only way to
 * change a constraint) needs `pragma foreign_keys = off`, which SQLite ignores inside a transaction, or
 * dropping the old parent table would cascade-delete its children. Such a migration begins and commits
 * its own transaction around the rebuild. On PostgreSQL, Kysely's transaction still applies.
 */
export function withoutTransaction(migration: Migration): Migration {
  managesOwnTransaction.add(migration);
  return migration;
}

/** Migrations compiled into the bundle, not globbed from disk, so `dist/` needs no source folder. */
function staticProvider(set: Readonly<Record<string, Migration>>): MigrationProvider {
  return {
    getMigrations: () =>
      Promise.resolve(
        Object.fromEntries(
          Object.entries(set).map(([name, m]) => [name, managesOwnTransaction.has(m) ? m : inTransaction(m)]),
        ),
      ),
  };
}

/** Names of all migrations this build knows, oldest first. */
export function knownMigrations(): string[] {
  return Object.keys(migrations).sort();
}

/**
 * Migrations released after a later-numbered one had shipped, so a database may have the later one
 * without them: 0005 was numbered before 0006 but released after it. Any other migration missing below
 * the newest one applied is a sign of a wrong build or a damaged database, and stops the start.
 */
const RELEASED_OUT_OF_ORDER: ReadonlySet<string> = new Set(['0005_server_secrets']);

async function refuseUnordered(migrator: Migrator): Promise<void> {
  const known = await migrator.getMigrations();
  const newest = known
    .filter((m) => m.executedAt !== undefined)
    .map((m) => m.name)
    .sort()
    .at(-1);
  if (newest === undefined) return;
  const missing = known
    .filter((m) => m.executedAt === undefined && m.name < newest && !RELEASED_OUT_OF_ORDER.has(m.name))
    .map((m) => m.name);
  if (missing.length > 0) {
    throw new DatabaseError(
      `database migrations ${missing.join(', ')} were never applied, but the later ${newest} was: ` +
        'this build does not match the database',
    );
  }
}

/**
 * Kysely lists the tables of every schema to find its own (PostgreSQL). Another client dropping a schema
 * during that list fails it with `invalid_schema_name` (3F000); dropping a table of another schema fails
 * it with `undefined_table` (42P01) naming that schema's table (`relation "other.upload_parts" does not
 * exist`, from the serial-sequence lookup). Neither is about our schema. Seen when test files on one
 * server drop their schemas while another migrates. An unqualified missing relation (a migration's own
 * mistake) is not retried.
 */
export function isOtherSchemaGone(error: unknown, ownSchema: string | undefined): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof message !== 'string') return false;
  if (code === '3F000') return ownSchema === undefined || !message.includes(`"${ownSchema}"`);
  if (code === '42P01') {
    const schema = /^relation "([^".]+)\.[^"]+" does not exist/.exec(message)?.[1];
    return schema !== undefined && schema !== ownSchema;
  }
  return false;
}

/** Runs `step` again (at most twice more) when only another schema vanished under Kysely's table list. */
async function retryCatalogRace<T>(ownSchema: string | undefined, step: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await step();
    } catch (error) {
      if (attempt >= 3 || !isOtherSchemaGone(error, ownSchema)) throw error;
    }
  }
}

/**
 * Applies every pending migration, in order, and returns the names applied (empty when up to date).
 * Safe to call from several servers starting at once: Kysely takes a lock (an advisory lock in
 * PostgreSQL) and each migration runs once. Throws `DatabaseError` naming the migration that failed,
 * which leaves nothing of itself behind (PostgreSQL rolls back the whole batch; SQLite commits each
 * migration on its own, so earlier ones of the batch stay). `set` is for tests; the server passes none.
 */
export async function migrateToLatest(
  db: Kysely<DB>,
  set: Readonly<Record<string, Migration>> = migrations,
): Promise<string[]> {
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
    provider: staticProvider(set),
    // Kysely's switch is all or nothing; refuseUnordered lets only RELEASED_OUT_OF_ORDER through.
    allowUnorderedMigrations: true,
    ...(migrationTableSchema === undefined ? {} : { migrationTableSchema }),
  });
  const { error, results } = await retryCatalogRace(migrationTableSchema, async () => {
    await refuseUnordered(migrator);
    const outcome = await migrator.migrateToLatest();
    if (outcome.error instanceof Error && isOtherSchemaGone(outcome.error, migrationTableSchema)) {
      throw outcome.error;
    }
    return outcome;
  });
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new DatabaseError(`database migration ${failed} failed`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
