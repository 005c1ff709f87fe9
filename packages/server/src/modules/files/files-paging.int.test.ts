/**
 * GET /users/files and /users/files/shared with optional paging: pages put together are exactly the
 * unpaged list, in the same order, ties on the timestamp included; the unpaged call (read in batches on
 * the server) still answers everything with the spec's `count`.
 */
import type { FileListResponse, SharedFilesResponse } from '@coffer/contracts';
import { FileListResponseSchema, SharedFilesResponseSchema } from '@coffer/contracts';
import { CompiledQuery, sql } from 'kysely';
import type { KyselyPlugin, RootOperationNode } from 'kysely';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../infra/db/values.js';
import { createSharesRepo } from '../shares/shares.repo.js';
import { createFilesRepo } from './files.repo.js';
import { startTestApp } from '../../test/app-harness.js';
import type { TestApp } from '../../test/app-harness.js';
import { insertFile } from '../../test/db-factories.js';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { createKey } from './files.test-helpers.js';

describe.each(dialectsUnderTest)('list paging ($name)', ({ open }) => {
  let database: TestDatabase;
  let t: TestApp;

  beforeAll(async () => {
    database = await open();
    t = await startTestApp({ database });
  });
  afterAll(async () => {
    await t.close();
    await database.destroy();
  });

  const userIdOf = async (name: string) =>
    (
      await database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', `${name}@example.test`)
        .executeTakeFirstOrThrow()
    ).id;

  /** Every page of `path` with `limit`, following nextCursor. */
  async function allPages<T extends { nextCursor?: string }>(name: string, path: string, limit: number) {
    const pages: T[] = [];
    let cursor: string | undefined;
    do {
      const query = `limit=${limit}${cursor === undefined ? '' : `&cursor=${cursor}`}`;
      const res = await t.as(name, { method: 'GET', url: `${path}?${query}` });
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json<T>();
      pages.push(page);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return pages;
  }

  it('pages through 1,203 files (many sharing a timestamp) exactly as the unpaged list orders them', async () => {
    await createKey(t, 'pam');
    const ownerId = await userIdOf('pam');
    const base = Date.UTC(2026, 0, 1);
    const rows = Array.from({ length: 1203 }, (_, i) => ({
      // Three files per timestamp: the id breaks the tie.
      uploaded_at: new Date(base + Math.floor(i / 3) * 1000).toISOString(),
    }));
    for (const row of rows) await insertFile(database.db, ownerId, row);

    const res = await t.as('pam', { method: 'GET', url: '/api/users/files' });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const whole = res.json<FileListResponse>();
    expect(Value.Check(FileListResponseSchema, whole)).toBe(true);
    expect(whole.count).toBe(1203);
    expect(whole.files).toHaveLength(1203);
    expect(whole).not.toHaveProperty('nextCursor');
    const times = whole.files.map((f) => f.uploadedAt);
    expect([...times].sort().reverse()).toEqual(times);

    const pages = await allPages<FileListResponse>('pam', '/api/users/files', 100);
    expect(pages).toHaveLength(13);
    expect(pages.map((p) => p.count)).toEqual([...Array<number>(12).fill(100), 3]);
    expect(pages.every((p) => Value.Check(FileListResponseSchema, p))).toBe(true);
    expect(pages.flatMap((p) => p.files)).toEqual(whole.files);
  });

  it('answers an empty list, and a list of exactly one read batch, whole', async () => {
    await createKey(t, 'nil');
    const empty = await t.as('nil', { method: 'GET', url: '/api/users/files' });
    expect(empty.json()).toEqual({ files: [], count: 0 });
    expect((await t.as('nil', { method: 'GET', url: '/api/users/files/shared' })).json()).toEqual({
      files: [],
    });
    expect((await t.as('nil', { method: 'GET', url: '/api/users/files?limit=5' })).json()).toEqual({
      files: [],
      count: 0,
    });
    const ownerId = await userIdOf('nil');
    for (let i = 0; i < 500; i += 1) await insertFile(database.db, ownerId);
    const whole = (await t.as('nil', { method: 'GET', url: '/api/users/files' })).json<FileListResponse>();
    expect(whole.count).toBe(500);
    expect(new Set(whole.files.map((f) => f.fileId)).size).toBe(500);
  });

  it('pages through files shared with me', async () => {
    await createKey(t, 'sal');
    const recipientId = await userIdOf('sal');
    await createKey(t, 'own');
    const ownerId = await userIdOf('own');
    for (let i = 0; i < 7; i += 1) {
      const file = await insertFile(database.db, ownerId);
      await database.db
        .insertInto('shares')
        .values({
          file_id: file.id,
          owner_id: ownerId,
          recipient_id: recipientId,
          recipient_email: 'sal@example.test',
          encrypted_file_key: 'a2V5',
          key_version: newId(),
          created_at: new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 2) * 1000).toISOString(),
        })
        .execute();
    }
    const whole = (
      await t.as('sal', { method: 'GET', url: '/api/users/files/shared' })
    ).json<SharedFilesResponse>();
    expect(whole.files).toHaveLength(7);
    const pages = await allPages<SharedFilesResponse>('sal', '/api/users/files/shared', 3);
    expect(pages.map((p) => p.files.length)).toEqual([3, 3, 1]);
    expect([whole, ...pages].every((p) => Value.Check(SharedFilesResponseSchema, p))).toBe(true);
    expect(pages.flatMap((p) => p.files)).toEqual(whole.files);
  });

  /**
   * The plan of the one query `run` sends. On PostgreSQL with sequential and bitmap scans off: on a tiny
   * table the planner would read everything and sort, whatever the indexes.
   */
  async function planOf(run: (plugin: KyselyPlugin) => Promise<unknown>): Promise<string> {
    const nodes: RootOperationNode[] = [];
    await run({
      transformQuery: ({ node }) => {
        nodes.push(node);
        return node;
      },
      transformResult: ({ result }) => Promise.resolve(result),
    });
    expect(nodes).toHaveLength(1);
    const [node] = nodes;
    if (node === undefined) throw new Error('no query');
    const query = database.db.getExecutor().compileQuery(node, { queryId: 'plan' });
    if (database.dialect === 'sqlite') {
      const rows = await database.db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
      );
      return rows.rows.map((r) => r.detail).join('\n');
    }
    return database.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      await sql`set local enable_bitmapscan = off`.execute(trx);
      const rows = await trx.executeQuery<{ 'QUERY PLAN': string }>(
        CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]),
      );
      return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
    });
  }

  it('reads a page after a cursor as one range of an index, already in order (no sort)', async () => {
    const after = { at: '2026-01-01T00:00:01.000Z', id: 'm' };
    const filesPlan = await planOf((plugin) =>
      createFilesRepo(database.db.withPlugin(plugin)).listFor('someone', { limit: 500, after }),
    );
    expect(filesPlan).toContain('files_owner_uploaded_id');
    expect(filesPlan).not.toMatch(/sort|temp b-tree/i);
    const sharedPlan = await planOf((plugin) =>
      createSharesRepo(database.db.withPlugin(plugin)).receivedBy('someone', { limit: 500, after }),
    );
    expect(sharedPlan).toContain('shares_recipient_created_file');
    expect(sharedPlan).not.toMatch(/sort|temp b-tree/i);
  });

  it('refuses a forged cursor, a cursor without a limit and a limit out of range with 400', async () => {
    for (const query of ['limit=5&cursor=bm9wZQ', 'cursor=bm9wZQ', 'limit=0', 'limit=1001', 'limit=x']) {
      const res = await t.as('pam', { method: 'GET', url: `/api/users/files?${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
  });
});
