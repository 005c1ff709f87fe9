/**
 * Databases for integration tests: every `*.int.test.ts` that touches the database runs once per dialect,
 * each file on its own isolated database.
 *
 *   describe.each(dialectsUnderTest)('$name', ({ open }) => {
 *     let t: TestDatabase;
 *     beforeAll(async () => { t = await open(); });
 *     afterAll(() => t.destroy());
 *     …
 *   });
 *
 * SQLite: a new file in a new temp folder per `open()`. PostgreSQL: with `TEST_DATABASE_URL` set (CI), a
 * fresh schema `coffer_test_<random>` on that server, dropped on `destroy()`; without it, an in-process
 * PGlite. Opening costs ~50 ms (SQLite), ~0.3 s (server schema) or 1–3 s (PGlite, from a cached template;
 * 10–15 s the first time on a machine): open once per file in `beforeAll`, and keep tests independent by
 * giving each its own users.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { sql } from 'kysely';
import pg from 'pg';
import { createDatabase } from '../infra/db/database.js';
import type { Database, DatabaseDialect } from '../infra/db/database.js';
import { migrateToLatest } from '../infra/db/migrate.js';
import { parseInt8 } from '../infra/db/safe-integers.js';

export type TestDatabase = Database;

export interface OpenOptions {
  /** Apply migrations before returning (default true). */
  migrate?: boolean;
}

export interface DialectUnderTest {
  name: DatabaseDialect;
  /** What actually runs: a SQLite file, a schema on a PostgreSQL server, or PGlite in-process. */
  backend: 'sqlite-file' | 'postgres-server' | 'pglite';
  open: (options?: OpenOptions) => Promise<TestDatabase>;
}

async function finish(database: Database, options: OpenOptions | undefined): Promise<TestDatabase> {
  if (options?.migrate !== false) {
    try {
      await migrateToLatest(database.db);
    } catch (err) {
      await database.destroy();
      throw err;
    }
  }
  return database;
}

async function openSqlite(options?: OpenOptions): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'coffer-db-'));
  const database = createDatabase({ url: undefined, dataDir: dir });
  const opened = await finish(
    {
      ...database,
      destroy: async () => {
        await database.destroy();
        rmSync(dir, { recursive: true, force: true });
      },
    },
    options,
  );
  return opened;
}

/** Runs one statement on a short-lived connection outside the test's pool. */
async function admin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A PostgreSQL URL whose every connection lives in `schema` (a startup parameter, so no pool can miss it). */
export function urlInSchema(url: string, schema: string): string {
  const scoped = new URL(url);
  const existing = scoped.searchParams.get('options');
  scoped.searchParams.set('options', `${existing === null ? '' : `${existing} `}-c search_path=${schema}`);
  return scoped.toString();
}

/**
 * A fresh, empty schema on the PostgreSQL server at `url`, for a test that hands the database to another
 * process (a real server): `url` is the URL to give it, `drop()` removes the schema and all it holds.
 */
export async function createPostgresSchema(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const schema = `coffer_test_${randomBytes(8).toString('hex')}`;
  await admin(url, `create schema ${schema}`);
  return { url: urlInSchema(url, schema), drop: () => admin(url, `drop schema if exists ${schema} cascade`) };
}

async function openPostgresSchema(url: string, options?: OpenOptions): Promise<TestDatabase> {
  const schema = `coffer_test_${randomBytes(8).toString('hex')}`;
  const database = createDatabase({ url: urlInSchema(url, schema), dataDir: tmpdir() });
  // Created through the test's own pool, so its connections can never miss the schema.
  await sql.raw(`create schema ${schema}`).execute(database.db);
  return finish(
    {
      ...database,
      destroy: async () => {
        await database.destroy();
        await admin(url, `drop schema if exists ${schema} cascade`);
      },
    },
    options,
  );
}

/**
 * A fresh PGlite runs initdb, which takes 6–15 s here; loading a dump of a fresh cluster takes ~1 s. The
 * dump of an empty, unmigrated cluster is cached in the temp folder per PGlite version, so it can never
 * hold a stale schema: migrations always run on top of it.
 */
function pgliteTemplatePath(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const pkg = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as {
    version?: unknown;
  };
  const version = typeof pkg.version === 'string' ? pkg.version.replace(/[^0-9a-z.-]/gi, '') : 'unknown';
  return join(tmpdir(), `coffer-pglite-template-${version}.tar`);
}

async function startPglite(): Promise<PGlite> {
  // The same int8 rule as the pg pool in database.ts.
  const parsers = { [pgliteTypes.INT8]: parseInt8 };
  const template = pgliteTemplatePath();
  if (existsSync(template)) {
    try {
      const pglite = new PGlite({ parsers, loadDataDir: new Blob([readFileSync(template)]) });
      await pglite.waitReady;
      return pglite;
    } catch {
      // A truncated or foreign file: rebuild it below.
      rmSync(template, { force: true });
    }
  }
  const pglite = new PGlite({ parsers });
  await pglite.waitReady;
  const dump = await pglite.dumpDataDir('none');
  // Write then rename, so a parallel worker never reads half a file.
  const partial = `${template}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(partial, new Uint8Array(await dump.arrayBuffer()));
  renameSync(partial, template);
  return pglite;
}

async function openPglite(options?: OpenOptions): Promise<TestDatabase> {
  const pglite = await startPglite();
  const database = createDatabase({
    url: undefined,
    dataDir: tmpdir(),
    dialect: { kind: 'postgres', dialect: new PGliteDialect(pglite) },
  });
  return finish(database, options);
}

const testDatabaseUrl = process.env.TEST_DATABASE_URL;
/** `TEST_DATABASE_URL`, when set: a PostgreSQL server the tests may create schemas on. */
export const postgresUrl =
  testDatabaseUrl === undefined || testDatabaseUrl === '' ? undefined : testDatabaseUrl;

export const dialectsUnderTest: readonly DialectUnderTest[] = [
  { name: 'sqlite', backend: 'sqlite-file', open: openSqlite },
  postgresUrl === undefined
    ? { name: 'postgres', backend: 'pglite', open: openPglite }
    : {
        name: 'postgres',
        backend: 'postgres-server',
        open: (options) => openPostgresSchema(postgresUrl, options),
      },
];

/** Runs `fn` and returns what it threw (undefined if nothing), to assert on the error itself, e.g. with `isUniqueViolation`. */
export async function caught(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (err) {
    return err;
  }
  return undefined;
}
