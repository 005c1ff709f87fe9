import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from './database.js';
import type { Database } from './database.js';
import { migrateToLatest } from './migrate.js';
import { OWNER_COLUMN } from './user-scope.js';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Per-user columns that are not "the caller's rows", with the reason. */
const NOT_SCOPED: Record<string, string> = {
  // Written with the sender's id; read only by admins (the feedback inbox), never by the sender.
  'feedback.user_id': 'admin inbox',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !/\.test(-helpers)?\.ts$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .filter((path) => !path.includes(`${join(SRC, 'test')}/`) && !path.includes(`${join(SRC, 'bench')}/`));
}

describe('scopedTo: the one "rows of the current user" query shape', () => {
  let database: Database;
  beforeAll(async () => {
    database = createDatabase({ url: 'sqlite::memory:', dataDir: SRC });
    await migrateToLatest(database.db);
  });
  afterAll(() => database.destroy());

  it('knows every table that holds rows of one user', async () => {
    const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(
      database.db,
    );
    const owned: string[] = [];
    for (const { name } of tables.rows) {
      const columns = await sql<{ name: string }>`select name from pragma_table_info(${name})`.execute(
        database.db,
      );
      for (const column of columns.rows) {
        if (column.name === 'user_id' || column.name === 'owner_id') {
          const qualified = `${name}.${column.name}`;
          if (!(qualified in NOT_SCOPED)) owned.push(qualified);
        }
      }
    }
    const known = Object.entries(OWNER_COLUMN).map(([table, column]) => `${table}.${column}`);
    expect(owned.sort()).toEqual(known.sort());
  });

  it('is the only place that filters by the owner column', () => {
    const direct = /\.where\(\s*['"`](?:\w+\.)?(?:user_id|owner_id)['"`]\s*,/;
    const offenders = sourceFiles(SRC)
      .filter((path) => !path.endsWith(join('infra', 'db', 'user-scope.ts')))
      .filter((path) => direct.test(readFileSync(path, 'utf8')))
      .map((path) => relative(SRC, path));
    expect(offenders).toEqual([]);
  });
});
