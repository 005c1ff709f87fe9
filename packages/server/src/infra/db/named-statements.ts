import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';

/**
 * Distinct query texts that get a prepared statement. The app issues a few dozen; the cap bounds what each
 * PostgreSQL connection keeps should some text vary without bound (an `in (...)` list of any length).
 */
export const MAX_NAMED_STATEMENTS = 500;

/** PostgreSQL's "cached plan must not change result type" (a `select *` whose table changed under it). */
const FEATURE_NOT_SUPPORTED = '0A000';
/**
 * PostgreSQL's "prepared statement does not exist": the server session lost what pg believes it prepared
 * (`DEALLOCATE ALL` / `DISCARD ALL` by a pooler's reset, or a transaction-mode pooler that put this
 * connection on another server session). pg never prepares it again on this connection.
 */
const INVALID_STATEMENT_NAME = '26000';

/**
 * Gives each query text a statement name, the same for every connection of the pool: pg then sends the
 * text once per connection (Parse) and only Bind/Execute after, and PostgreSQL skips parsing, analysing
 * and (once it settles on a generic plan) planning. Texts beyond {@link MAX_NAMED_STATEMENTS} stay unnamed.
 */
export class StatementNames {
  readonly #names = new Map<string, string>();

  nameFor(sql: string): string | undefined {
    const known = this.#names.get(sql);
    if (known !== undefined || this.#names.size >= MAX_NAMED_STATEMENTS) return known;
    const name = `coffer_${String(this.#names.size + 1)}`;
    this.#names.set(sql, name);
    return name;
  }
}

/** An error after which this connection's prepared statement keeps failing on every later use. */
function isStalePlan(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === FEATURE_NOT_SUPPORTED || code === INVALID_STATEMENT_NAME;
}

/**
 * A connection whose parameterised queries run as named (prepared) statements. Queries without parameters
 * keep pg's simple protocol (migrations send several statements in one text, which only it allows).
 */
function namedStatementClient(client: pg.PoolClient, names: StatementNames): PostgresPoolClient {
  // A statement prepared before a migration changed its table, or one the server session no longer
  // holds, fails on every later use on this connection; the connection is then dropped, not returned
  // to the pool, and a new one prepares afresh.
  let staleError: Error | undefined;
  async function run<R>(sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>> {
    const name = parameters.length === 0 ? undefined : names.nameFor(sql);
    const values = [...parameters];
    try {
      const result = await (name === undefined
        ? client.query(sql, values)
        : client.query({ name, text: sql, values }));
      return result as unknown as PostgresQueryResult<R>;
    } catch (error) {
      if (name !== undefined && isStalePlan(error)) staleError = error as Error;
      throw error;
    }
  }
  function query<R>(sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>>;
  function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  function query<R>(
    sqlOrCursor: string | PostgresCursor<R>,
    parameters: readonly unknown[] = [],
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof sqlOrCursor !== 'string') {
      // Cursors are pg's own submittables; pass them through unchanged.
      return client.query(sqlOrCursor as unknown as pg.Submittable) as unknown as PostgresCursor<R>;
    }
    return run(sqlOrCursor, parameters);
  }
  return {
    query,
    release: () => {
      client.release(staleError);
    },
  };
}

/** The pool as Kysely's PostgresDialect takes it, with every connection running named statements. */
export function namedStatementPool(pool: pg.Pool, names = new StatementNames()): PostgresPool {
  return {
    connect: async () => namedStatementClient(await pool.connect(), names),
    end: () => pool.end(),
  };
}
