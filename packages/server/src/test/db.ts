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
 * PGlite. Opening costs ~50 ms (SQLite), ~0.3 s (server schema) or 2–10 s (PGlite): open once per file
 * in `beforeAll`, and keep tests independent by giving each its own users.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { PGliteDialect } from 'kysely-pglite-dialect';
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

async function openPostgresSchema(url: string, options?: OpenOptions): Promise<TestDatabase> {
  const schema = `coffer_test_${randomBytes(8).toString('hex')}`;
  await admin(url, `create schema ${schema}`);
  // A startup parameter, so every connection the pool ever opens lives in the test's schema.
  const scoped = new URL(url);
  const existing = scoped.searchParams.get('options');
  scoped.searchParams.set('options', `${existing === null ? '' : `${existing} `}-c search_path=${schema}`);
  const database = createDatabase({ url: scoped.toString(), dataDir: tmpdir() });
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

async function openPglite(options?: OpenOptions): Promise<TestDatabase> {
  // The same int8 rule as the pg pool in database.ts.
  const pglite = new PGlite({ parsers: { [pgliteTypes.INT8]: parseInt8 } });
  await pglite.waitReady;
  const database = createDatabase({
    url: undefined,
    dataDir: tmpdir(),
    dialect: { kind: 'postgres', dialect: new PGliteDialect(pglite) },
  });
  return finish(database, options);
}

const testDatabaseUrl = process.env.TEST_DATABASE_URL;
const postgresUrl = testDatabaseUrl === undefined || testDatabaseUrl === '' ? undefined : testDatabaseUrl;

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
