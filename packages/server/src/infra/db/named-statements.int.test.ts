import { tmpdir } from 'node:os';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caught, createPostgresSchema, postgresUrl } from '../../test/db.js';
import type { Database } from './database.js';
import { createDatabase } from './database.js';
import { MAX_NAMED_STATEMENTS, StatementNames } from './named-statements.js';

describe('statement names', () => {
  it('gives a text the same name every time, and no name past the cap', () => {
    const names = new StatementNames();
    const first = names.nameFor('select 1 where $1');
    expect(first).toBeDefined();
    expect(names.nameFor('select 1 where $1')).toBe(first);
    for (let i = 2; i <= MAX_NAMED_STATEMENTS; i++) names.nameFor(`select ${String(i)} where $1`);
    expect(names.nameFor('select -1 where $1')).toBeUndefined();
    expect(names.nameFor('select 1 where $1')).toBe(first);
  });
});

/*
 * PGlite runs in-process without pg's pool, so only a PostgreSQL server (TEST_DATABASE_URL, as in CI)
 * exercises the pool's connections.
 */
const servers = postgresUrl === undefined ? [] : [postgresUrl];

describe.each(servers)('named statements on a PostgreSQL server', (url) => {
  let schema: { url: string; drop: () => Promise<void> };
  let database: Database;

  /** Statements prepared on the pool's one connection (a query without parameters: never itself prepared). */
  async function prepared(): Promise<string[]> {
    const result = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
      database.db,
    );
    return result.rows.map((row) => row.statement);
  }

  beforeAll(async () => {
    schema = await createPostgresSchema(url);
    // One connection, so every query below meets the statements the ones before it prepared.
    database = createDatabase({ url: schema.url, dataDir: tmpdir(), poolSize: 1 });
    await sql`create table items (id integer primary key, label text not null)`.execute(database.db);
    await sql`insert into items values (1, 'one'), (2, 'two')`.execute(database.db);
  });

  afterAll(async () => {
    await database.destroy();
    await schema.drop();
  });

  it('prepares a parameterised query once per connection and answers from it after', async () => {
    const byId = sql<{ label: string }>`select label from items where id = ${1}`;
    const byIdText = byId.compile(database.db).sql;
    expect((await byId.execute(database.db)).rows).toEqual([{ label: 'one' }]);
    expect(await prepared()).toEqual([byIdText]);
    const other = await sql<{ label: string }>`select label from items where id = ${2}`.execute(database.db);
    expect(other.rows).toEqual([{ label: 'two' }]);
    expect(await prepared()).toEqual([byIdText]);
  });

  it('drops a connection whose statement a schema change broke, and the next query works', async () => {
    const all = () => sql<Record<string, unknown>>`select * from items where id = ${1}`.execute(database.db);
    expect((await all()).rows).toEqual([{ id: 1, label: 'one' }]);
    // What a migration run by another instance does while this one holds the prepared `select *`.
    await sql`alter table items add column note text`.execute(database.db);
    expect(await caught(all)).toMatchObject({ code: '0A000' });
    expect((await all()).rows).toEqual([{ id: 1, label: 'one', note: null }]);
  });

  it('drops a connection whose server session lost its prepared statements, and the next query works', async () => {
    const label = () => sql<{ label: string }>`select label from items where id = ${2}`.execute(database.db);
    expect((await label()).rows).toEqual([{ label: 'two' }]);
    // What a pooler's reset (`DISCARD ALL`) does behind pg's back: pg still believes the text prepared.
    await sql`deallocate all`.execute(database.db);
    expect(await caught(label)).toMatchObject({ code: '26000' });
    expect((await label()).rows).toEqual([{ label: 'two' }]);
  });
});
