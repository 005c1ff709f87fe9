import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Migration } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caught, dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { insertContact, insertFile, insertUser, insertUserKey } from '../../test/db-factories.js';
import { currentSchemaTables } from './coffer-tables.js';
import { createDatabase } from './database.js';
import { DatabaseError, isForeignKeyViolation, isUniqueViolation } from './errors.js';
import { knownMigrations, migrateToLatest, withoutTransaction } from './migrate.js';
import { migrations } from './migrations/index.js';
import type { DB } from './schema.js';
import { newId, nowIso } from './values.js';

/** Migrations, constraints, cascades, ordering and integer safety; per-table round trips are in tables.int.test.ts. */
describe.each(dialectsUnderTest)('database on $name ($backend)', ({ name, open }) => {
  let t: TestDatabase;
  let firstRun: string[];
  let secondRun: string[];

  beforeAll(async () => {
    t = await open({ migrate: false });
    firstRun = await migrateToLatest(t.db);
    secondRun = await migrateToLatest(t.db);
  });

  afterAll(async () => {
    await t.destroy();
  });

  it('applies every migration once, and nothing on a second run', async () => {
    expect(t.dialect).toBe(name);
    expect(firstRun).toEqual(knownMigrations());
    expect(secondRun).toEqual([]);
    const tables = await currentSchemaTables(t.db);
    const expected: (keyof DB)[] = [
      'users',
      'user_keys',
      'contacts',
      'invitations',
      'feedback',
      'transfer_events',
      'files',
      'uploads',
      'upload_parts',
      'shares',
      'payment_events',
      'idp_accounts',
      'idp_payloads',
      'idp_keys',
      'server_secrets',
    ];
    expect(tables).toEqual(expect.arrayContaining(expected));
  });

  it('rolls back a migration that fails half-way', async () => {
    const broken: Record<string, Migration> = {
      ...migrations,
      '9998_ok': {
        up: async (db) => {
          await db.schema.createTable('zz_migration_ok').addColumn('id', 'text').execute();
        },
      },
      '9999_broken': {
        up: async (db) => {
          await db.schema.createTable('zz_migration_half').addColumn('id', 'text').execute();
          await sql`select * from no_such_table`.execute(db);
        },
      },
    };
    const err = await caught(() => migrateToLatest(t.db, broken));
    expect(err).toBeInstanceOf(DatabaseError);
    expect((err as Error).message).toContain('9999_broken');
    const tables = await currentSchemaTables(t.db);
    expect(tables).not.toContain('zz_migration_half');
    // PostgreSQL runs the whole batch in one transaction; SQLite commits each migration on its own.
    expect(tables.includes('zz_migration_ok')).toBe(name === 'sqlite');
    await sql`drop table if exists zz_migration_ok`.execute(t.db);
    await sql`delete from kysely_migration where name = '9998_ok'`.execute(t.db);
    expect(await migrateToLatest(t.db)).toEqual([]);
  });

  it('lets a marked migration manage its own transaction on SQLite', async () => {
    let inTransactionSeen: boolean | undefined;
    const marked = withoutTransaction({
      up: (db) => {
        inTransactionSeen = db.isTransaction;
        return Promise.resolve();
      },
    });
    expect(await migrateToLatest(t.db, { ...migrations, '9997_marked': marked })).toEqual(['9997_marked']);
    // Kysely itself wraps PostgreSQL migrations; on SQLite nothing does.
    expect(inTransactionSeen).toBe(name === 'postgres');
    await sql`delete from kysely_migration where name = '9997_marked'`.execute(t.db);
  });

  it('applies 0005 to a database that already has 0006 (0005 was released after it)', async () => {
    const fresh = await open({ migrate: false });
    try {
      const { '0005_server_secrets': later, ...released } = migrations;
      expect(later).toBeDefined();
      expect(await migrateToLatest(fresh.db, released)).toContain('0006_list_indexes');
      expect(await migrateToLatest(fresh.db)).toEqual(['0005_server_secrets']);
      const tables = await currentSchemaTables(fresh.db);
      expect(tables).toContain('server_secrets');
    } finally {
      await fresh.destroy();
    }
  });

  it('refuses any other migration missing below the newest one applied', async () => {
    const noop: Migration = { up: () => Promise.resolve() };
    await migrateToLatest(t.db, { ...migrations, '9996_later': noop });
    try {
      const error = await caught(() =>
        migrateToLatest(t.db, { ...migrations, '9995_gap': noop, '9996_later': noop }),
      );
      expect(error).toBeInstanceOf(DatabaseError);
      expect((error as Error).message).toBe(
        'database migrations 9995_gap were never applied, but the later 9996_later was: ' +
          'this build does not match the database',
      );
    } finally {
      await sql`delete from kysely_migration where name = '9996_later'`.execute(t.db);
    }
  });

  it('enforces the unique constraints the services rely on', async () => {
    const user = await insertUser(t.db);

    const sameIdentity = await caught(() => insertUser(t.db, { issuer: user.issuer, subject: user.subject }));
    expect(isUniqueViolation(sameIdentity)).toBe(true);
    expect(isForeignKeyViolation(sameIdentity)).toBe(false);

    expect(isUniqueViolation(await caught(() => insertUser(t.db, { email: user.email })))).toBe(true);
    // Many users may have no email at all.
    await insertUser(t.db, { email: null });
    await insertUser(t.db, { email: null });

    const contact = await insertContact(t.db, user.id);
    expect(
      isUniqueViolation(await caught(() => insertContact(t.db, user.id, { email: contact.email }))),
    ).toBe(true);
    // The same address in another user's book is fine.
    const other = await insertUser(t.db);
    await insertContact(t.db, other.id, { email: contact.email });

    const file = await insertFile(t.db, user.id);
    const share = {
      file_id: file.id,
      owner_id: user.id,
      recipient_id: other.id,
      recipient_email: other.email ?? '',
      encrypted_file_key: 'a2V5',
      key_version: 'v1',
      created_at: nowIso(),
    };
    await t.db.insertInto('shares').values(share).execute();
    expect(isUniqueViolation(await caught(() => t.db.insertInto('shares').values(share).execute()))).toBe(
      true,
    );

    expect(
      isUniqueViolation(await caught(() => insertFile(t.db, user.id, { object_key: file.object_key }))),
    ).toBe(true);
  });

  it('enforces foreign keys and value checks', async () => {
    const orphan = await caught(() => insertUserKey(t.db, 'no-such-user'));
    expect(isForeignKeyViolation(orphan)).toBe(true);
    expect(isUniqueViolation(orphan)).toBe(false);

    const user = await insertUser(t.db);
    // Booleans are 0/1 and sizes non-negative in both dialects.
    await expect(insertFile(t.db, user.id, { is_encrypted: 2 as 0 })).rejects.toThrow();
    await expect(insertFile(t.db, user.id, { size: -1 })).rejects.toThrow();
  });

  it('deletes everything a user owns with the user', async () => {
    const user = await insertUser(t.db);
    const friend = await insertUser(t.db);
    await insertUserKey(t.db, user.id);
    await insertContact(t.db, user.id);
    const file = await insertFile(t.db, user.id);
    const friendsFile = await insertFile(t.db, friend.id);
    const now = nowIso();
    const shareBase = { encrypted_file_key: 'a2V5', key_version: 'v1', created_at: now };
    await t.db
      .insertInto('shares')
      .values([
        {
          ...shareBase,
          file_id: file.id,
          owner_id: user.id,
          recipient_id: friend.id,
          recipient_email: 'f@x.test',
        },
        {
          ...shareBase,
          file_id: friendsFile.id,
          owner_id: friend.id,
          recipient_id: user.id,
          recipient_email: 'u@x.test',
        },
      ])
      .execute();
    const uploadId = newId();
    await t.db
      .insertInto('uploads')
      .values({
        id: uploadId,
        user_id: user.id,
        file_name: 'a.bin',
        content_type: 'application/octet-stream',
        size: 1,
        stored_size: 29,
        is_encrypted: 1,
        encryption_info: null,
        object_key: `users/${user.id}/uploads/${uploadId}`,
        storage_upload_id: null,
        kind: 'direct',
        status: 'pending',
        parts: 1,
        file_id: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await t.db
      .insertInto('upload_parts')
      .values({ upload_id: uploadId, part_number: 1, etag: 'e', size: 29, created_at: now })
      .execute();
    const feedbackId = newId();
    await t.db
      .insertInto('feedback')
      .values({ id: feedbackId, user_id: user.id, user_email: 'u@x.test', message: 'hi', created_at: now })
      .execute();

    await t.db.deleteFrom('users').where('id', '=', user.id).execute();

    const count = async (
      table: 'user_keys' | 'contacts' | 'files' | 'uploads',
      column: 'user_id' | 'owner_id',
    ) => {
      const row = await sql<{
        n: number;
      }>`select count(*) as n from ${sql.table(table)} where ${sql.ref(column)} = ${user.id}`.execute(t.db);
      return Number(row.rows[0]?.n);
    };
    expect(await count('user_keys', 'user_id')).toBe(0);
    expect(await count('contacts', 'user_id')).toBe(0);
    expect(await count('files', 'owner_id')).toBe(0);
    expect(await count('uploads', 'user_id')).toBe(0);
    expect(
      await t.db.selectFrom('upload_parts').selectAll().where('upload_id', '=', uploadId).execute(),
    ).toEqual([]);
    // Shares of the user's files and shares to the user are both gone; the friend's file stays.
    expect(
      await t.db.selectFrom('shares').selectAll().where('file_id', 'in', [file.id, friendsFile.id]).execute(),
    ).toEqual([]);
    expect(
      await t.db.selectFrom('files').select('id').where('id', '=', friendsFile.id).execute(),
    ).toHaveLength(1);
    // Feedback outlives its author, for the admins.
    const feedback = await t.db
      .selectFrom('feedback')
      .selectAll()
      .where('id', '=', feedbackId)
      .executeTakeFirstOrThrow();
    expect(feedback.user_id).toBeNull();
  });

  it('orders ISO timestamps chronologically, to the millisecond', async () => {
    const user = await insertUser(t.db);
    const base = Date.parse('2026-03-01T12:00:00.000Z');
    const offsets = [5, 0, 1000, 1, 86_400_000, 999];
    for (const ms of offsets) {
      await insertUserKey(t.db, user.id, {
        id: `k${ms}-${newId()}`,
        created_at: new Date(base + ms).toISOString(),
      });
    }
    const keys = await t.db
      .selectFrom('user_keys')
      .select('created_at')
      .where('user_id', '=', user.id)
      .orderBy('created_at', 'desc')
      .execute();
    const expected = [...offsets].sort((a, b) => b - a).map((ms) => new Date(base + ms).toISOString());
    expect(keys.map((k) => k.created_at)).toEqual(expected);
    const newest = await t.db
      .selectFrom('user_keys')
      .select('created_at')
      .where('user_id', '=', user.id)
      .where('created_at', '>=', new Date(base + 1000).toISOString())
      .execute();
    expect(newest).toHaveLength(2);
  });

  it('rolls back a failed transaction', async () => {
    const user = await insertUser(t.db);
    const err = await caught(() =>
      t.db.transaction().execute(async (trx) => {
        await insertContact(trx, user.id, { email: 'first@example.test' });
        await insertContact(trx, user.id, { email: 'first@example.test' });
      }),
    );
    expect(isUniqueViolation(err)).toBe(true);
    expect(await t.db.selectFrom('contacts').selectAll().where('user_id', '=', user.id).execute()).toEqual(
      [],
    );
  });

  it('refuses integers beyond 2^53 instead of rounding them', async () => {
    const err = await caught(() => sql`select cast(9007199254740993 as bigint) as n`.execute(t.db));
    expect(err).toBeInstanceOf(DatabaseError);
    // The connection is still usable afterwards.
    const ok = await sql<{ n: number }>`select cast(9007199254740991 as bigint) as n`.execute(t.db);
    expect(ok.rows[0]?.n).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe('createDatabase on SQLite', () => {
  it('creates the data folder and opens coffer.db with WAL, foreign keys and a busy timeout', async () => {
    const root = mkdtempSync(join(tmpdir(), 'coffer-db-open-'));
    const dataDir = join(root, 'nested', 'data');
    const database = createDatabase({ url: undefined, dataDir });
    try {
      expect(database.dialect).toBe('sqlite');
      await migrateToLatest(database.db);
      expect(existsSync(join(dataDir, 'coffer.db'))).toBe(true);
      const pragma = async (name: string): Promise<unknown> => {
        const { rows } = await sql<Record<string, unknown>>`${sql.raw(`pragma ${name}`)}`.execute(
          database.db,
        );
        // The column is not always named after the pragma (busy_timeout answers `timeout`).
        return Object.values(rows[0] ?? {})[0];
      };
      expect(await pragma('journal_mode')).toBe('wal');
      expect(await pragma('foreign_keys')).toBe(1);
      expect(await pragma('busy_timeout')).toBe(5000);
    } finally {
      await database.destroy();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('keeps data across a reopen', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'coffer-db-reopen-'));
    try {
      const first = createDatabase({ url: 'sqlite:', dataDir });
      await migrateToLatest(first.db);
      const user = await insertUser(first.db);
      await first.destroy();

      const second = createDatabase({
        url: `sqlite://${join(dataDir, 'coffer.db')}`,
        dataDir: '/nonexistent',
      });
      expect(await migrateToLatest(second.db)).toEqual([]);
      const read = await second.db.selectFrom('users').select('id').where('id', '=', user.id).execute();
      await second.destroy();
      expect(read).toEqual([{ id: user.id }]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
