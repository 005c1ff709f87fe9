import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDatabase, DEFAULT_SQLITE_FILE } from './database.js';

describe('SQLite secure_delete (issue 31: a replaced clear name leaves the file)', () => {
  it('zeroes an overwritten value instead of leaving it in the page', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'coffer-secure-delete-'));
    const database = createDatabase({ url: undefined, dataDir: dir });
    try {
      const { db } = database;
      await sql`create table t (id integer primary key, name text)`.execute(db);
      for (let i = 0; i < 3; i += 1) {
        await sql`insert into t (name) values (${`divorce-settlement-marker-${i}.pdf`})`.execute(db);
      }
      // The names reach the database file itself, as they do after any checkpoint.
      await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
      const file = join(dir, DEFAULT_SQLITE_FILE);
      expect(readFileSync(file).includes('divorce-settlement-marker')).toBe(true);

      // A shorter value in place, as the node calls write 'encrypted' over a name.
      await sql`update t set name = 'encrypted'`.execute(db);
      await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
      expect(readFileSync(file).includes('divorce-settlement-marker')).toBe(false);
      expect(readFileSync(`${file}-wal`).length).toBe(0);
    } finally {
      await database.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
