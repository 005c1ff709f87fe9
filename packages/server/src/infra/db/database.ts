import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, SqliteDialect } from 'kysely';
import type { Dialect, LogEvent } from 'kysely';
import pg from 'pg';
import { DatabaseConfigError } from './errors.js';
import { namedStatementPool } from './named-statements.js';
import { parseInt8, SafeIntegerPlugin } from './safe-integers.js';
import type { DB } from './schema.js';

export type DatabaseDialect = 'sqlite' | 'postgres';

/** An open database: the query builder, which SQL dialect it speaks, and how to close it. */
export interface Database {
  db: Kysely<DB>;
  dialect: DatabaseDialect;
  /** The PostgreSQL pool's connections now (for metrics); absent for SQLite and injected dialects. */
  poolStats?: () => DatabasePoolStats;
  destroy(): Promise<void>;
}

export interface DatabasePoolStats {
  /** Connections open, busy or idle. */
  total: number;
  idle: number;
  /** Queries waiting for a connection: above zero for long, the pool is too small. */
  waiting: number;
  max: number;
}

/** The subset of a pino logger the database uses. */
export interface DatabaseLogger {
  debug(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface CreateDatabaseOptions {
  /** `DATABASE_URL`: undefined, `sqlite:[path]`, `postgres://…` or `postgresql://…`. */
  url: string | undefined;
  /** Data folder; the default SQLite file is `<dataDir>/coffer.db`. */
  dataDir: string;
  logger?: DatabaseLogger;
  /** `DATABASE_POOL_SIZE`: connections a PostgreSQL pool may open (default 10, as pg's). */
  poolSize?: number;
  /** Use this Kysely dialect instead of one built from `url` (tests: PGlite in-process). */
  dialect?: { kind: DatabaseDialect; dialect: Dialect };
}

export type DatabaseTarget =
  | { kind: 'sqlite'; file: string }
  | { kind: 'sqlite'; memory: true }
  | { kind: 'postgres'; connectionString: string };

/** Name of the SQLite file in the data folder when `DATABASE_URL` does not name one. */
export const DEFAULT_SQLITE_FILE = 'coffer.db';

/** Queries slower than this are logged as warnings. */
const SLOW_QUERY_MS = 1000;

/** Never echo a whole URL in an error: it may carry a password. */
function schemeOf(url: string): string {
  const match = /^([a-z][a-z0-9+.-]*):/i.exec(url);
  return match?.[1] !== undefined ? `${match[1]}:` : 'no scheme';
}

/**
 * Reads `DATABASE_URL`. Absent or empty → `<dataDir>/coffer.db`. `sqlite:` with nothing after it does the
 * same; `sqlite:<path>` or `sqlite://<path>` names the file (relative paths resolve against the working
 * directory, like `DATA_DIR`); `sqlite::memory:` is an in-memory database. `postgres://` and
 * `postgresql://` URLs go to `pg` as they are.
 */
export function parseDatabaseUrl(url: string | undefined, dataDir: string): DatabaseTarget {
  const raw = url?.trim() ?? '';
  if (raw === '') return { kind: 'sqlite', file: join(resolve(dataDir), DEFAULT_SQLITE_FILE) };

  const lower = raw.toLowerCase();
  if (lower.startsWith('sqlite:')) {
    let path = raw.slice('sqlite:'.length);
    if (path.startsWith('//')) {
      path = path.slice(2);
      try {
        path = decodeURIComponent(path);
      } catch {
        throw new DatabaseConfigError('DATABASE_URL has a malformed percent-escape in its SQLite path');
      }
    }
    if (path === '') return { kind: 'sqlite', file: join(resolve(dataDir), DEFAULT_SQLITE_FILE) };
    if (path === ':memory:') return { kind: 'sqlite', memory: true };
    return { kind: 'sqlite', file: resolve(path) };
  }

  if (lower.startsWith('postgres://') || lower.startsWith('postgresql://')) {
    if (!namesPostgresHost(raw)) {
      throw new DatabaseConfigError(`DATABASE_URL is not a valid ${schemeOf(raw)} URL with a host`);
    }
    return { kind: 'postgres', connectionString: raw };
  }

  throw new DatabaseConfigError(
    `DATABASE_URL must start with postgres://, postgresql:// or sqlite:, got ${schemeOf(raw)}`,
  );
}

/**
 * Whether pg will find a server: a host in the authority, or a `host` parameter (a Unix socket folder, as
 * in `postgres://user@/db?host=/var/run/postgresql`, which WHATWG URL refuses and pg accepts).
 */
function namesPostgresHost(raw: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(raw);
    if (parsed.hostname !== '') return true;
  } catch {
    try {
      parsed = new URL(raw.replace('@/', '@socket.invalid/'));
    } catch {
      return false;
    }
  }
  return (parsed.searchParams.get('host') ?? '') !== '';
}

function logFunction(logger: DatabaseLogger): (event: LogEvent) => void {
  // Only the SQL text is logged: parameters hold emails, keys and names.
  return (event) => {
    const fields = { sql: event.query.sql, durationMs: Math.round(event.queryDurationMillis) };
    if (event.level === 'error') {
      // Constraint violations are expected and handled by callers, so a failure is not an error here.
      logger.debug({ ...fields, err: event.error }, 'database query failed');
    } else if (event.queryDurationMillis > SLOW_QUERY_MS) {
      logger.warn(fields, 'slow database query');
    } else {
      logger.debug(fields, 'database query');
    }
  };
}

function openSqlite(target: { file: string } | { memory: true }): SqliteDatabase.Database {
  if ('file' in target) mkdirSync(dirname(target.file), { recursive: true });
  const sqlite = new SqliteDatabase('file' in target ? target.file : ':memory:');
  // WAL lets readers run while one writer commits; NORMAL sync is durable across app crashes in WAL mode.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // Deleted and overwritten content (a file's clear name replaced by 'encrypted', issue 31) is zeroed in
  // the file instead of lingering in free space. Pages still in the WAL go at its next reset.
  sqlite.pragma('secure_delete = ON');
  // Another process (a second `npm start`, a backup tool) holding the write lock makes us wait, not fail.
  sqlite.pragma('busy_timeout = 5000');
  // Integers come back as bigint; SafeIntegerPlugin converts them and refuses any beyond 2^53.
  sqlite.defaultSafeIntegers(true);
  return sqlite;
}

/**
 * pg's parsers, except int8 (sizes, counts), which becomes a safe JS number instead of a string. The cast:
 * pg-types declares its parsers as returning `any`.
 */
const getTypeParser: pg.CustomTypesConfig['getTypeParser'] = (oid, format) =>
  oid === pg.types.builtins.INT8
    ? parseInt8
    : (pg.types.getTypeParser(oid, format) as (value: string) => unknown);

function openPostgres(connectionString: string, max: number, logger: DatabaseLogger | undefined): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    application_name: 'coffer',
    // Per pool, not in pg's global registry, so no other pg user in the process is affected.
    types: { getTypeParser },
  });
  // An idle connection dropped by the server emits 'error' on the pool; unhandled, it would end the process.
  pool.on('error', (err) => {
    logger?.warn({ err }, 'idle PostgreSQL connection failed');
  });
  return pool;
}

/**
 * Opens the database named by `url` (see `parseDatabaseUrl`), or the injected `dialect`. Does not run
 * migrations: call `migrateToLatest(db)` next.
 */
/**
 * SQLite only (a no-op for PostgreSQL): copies the write-ahead log into the database file and empties
 * it. With `secure_delete` the file then holds no overwritten row (a file's clear name replaced by its
 * sealed one, issue 31); without this, the pages written before the change stay in the log until
 * SQLite happens to reuse them. Waits for the connection like any query.
 */
export async function truncateJournal(database: Pick<Database, 'db' | 'dialect'>): Promise<void> {
  if (database.dialect !== 'sqlite') return;
  await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(database.db);
}

export function createDatabase(opts: CreateDatabaseOptions): Database {
  const log = opts.logger === undefined ? undefined : logFunction(opts.logger);
  let kind: DatabaseDialect;
  let dialect: Dialect;
  let poolStats: (() => DatabasePoolStats) | undefined;
  if (opts.dialect !== undefined) {
    kind = opts.dialect.kind;
    dialect = opts.dialect.dialect;
  } else {
    const target = parseDatabaseUrl(opts.url, opts.dataDir);
    kind = target.kind;
    if (target.kind === 'postgres') {
      const max = opts.poolSize ?? 10;
      const pool = openPostgres(target.connectionString, max, opts.logger);
      poolStats = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max });
      dialect = new PostgresDialect({ pool: namedStatementPool(pool) });
    } else {
      dialect = new SqliteDialect({ database: openSqlite(target) });
    }
  }
  const db = new Kysely<DB>({
    dialect,
    ...(log === undefined ? {} : { log }),
    // Harmless where no bigint ever arrives (pg with parseInt8); vital for better-sqlite3 and PGlite.
    plugins: [new SafeIntegerPlugin()],
  });
  return {
    db,
    dialect: kind,
    ...(poolStats === undefined ? {} : { poolStats }),
    destroy: () => db.destroy(),
  };
}
