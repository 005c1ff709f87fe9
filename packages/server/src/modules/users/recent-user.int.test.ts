/**
 * Routes that only read the caller's own data may answer from a user row this instance read a moment
 * ago; every other route reads the row afresh, so a plan changed by another instance (a payment webhook)
 * is shown and enforced at once.
 */
import type { KyselyPlugin, RootOperationNode } from 'kysely';
import { SelectQueryNode, TableNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/app-harness.js';
import type { TestApp } from '../../test/app-harness.js';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { RECENT_USER_MS } from './recent-users.js';

const FREE = { maxContacts: 1 };
const PERSONAL = { maxContacts: 100 };
/** What a page of the web app asks in a burst, all read-only. */
const READ_ONLY = [
  '/api/users/files',
  '/api/users/files/shared',
  '/api/users/contacts',
  '/api/users/uploads',
];

function readsUsers(node: RootOperationNode): boolean {
  if (!SelectQueryNode.is(node)) return false;
  return (node.from?.froms ?? []).some(
    (from) => TableNode.is(from) && from.table.identifier.name === 'users',
  );
}

describe.each(dialectsUnderTest)('recently read users ($name)', ({ open }) => {
  let database: TestDatabase;
  let t: TestApp;
  let clock = Date.now();
  let userQueries = 0;

  beforeAll(async () => {
    database = await open();
    const countUserQueries: KyselyPlugin = {
      transformQuery: ({ node }) => {
        if (readsUsers(node)) userQueries++;
        return node;
      },
      transformResult: ({ result }) => Promise.resolve(result),
    };
    t = await startTestApp({
      database: { ...database, db: database.db.withPlugin(countUserQueries) },
      env: { PLAN_LIMITS_FREE: JSON.stringify(FREE), PLAN_LIMITS_PERSONAL: JSON.stringify(PERSONAL) },
      overrides: { now: () => new Date(clock) },
    });
  });
  afterAll(async () => {
    await t.close();
    await database.destroy();
  });

  /** What another instance does when a plan is bought or cancelled. */
  const setTier = async (name: string, tier: 'Free' | 'Personal') => {
    await database.db
      .updateTable('users')
      .set({ tier, current_period_end: null })
      .where('email', '=', `${name}@example.test`)
      .execute();
  };
  const get = async (name: string, url: string) => {
    const response = await t.as(name, { method: 'GET', url });
    expect(response.statusCode, url).toBe(200);
    return response;
  };
  const userQueriesOf = async (run: () => Promise<unknown>) => {
    const before = userQueries;
    await run();
    return userQueries - before;
  };

  it(`answers a burst of read-only calls with one user query per ${String(RECENT_USER_MS)} ms`, async () => {
    await get('ru1', '/api/users/stats');
    const burst = () => Promise.all(READ_ONLY.map((url) => get('ru1', url)));
    expect(await userQueriesOf(burst)).toBe(0);
    clock += RECENT_USER_MS;
    expect(await userQueriesOf(async () => get('ru1', READ_ONLY[0] ?? ''))).toBe(1);
    expect(await userQueriesOf(burst)).toBe(0);
    // Stats shows the plan: always the row as it is now.
    expect(await userQueriesOf(async () => get('ru1', '/api/users/stats'))).toBe(1);
  });

  it('shows and enforces a plan changed elsewhere at once, however recently the row was read', async () => {
    await get('ru2', '/api/users/contacts');
    await setTier('ru2', 'Personal');
    const stats = await get('ru2', '/api/users/stats');
    expect(stats.json<{ subscription: { tier: string } }>().subscription.tier).toBe('Personal');
    const add = (friend: string) =>
      t.as('ru2', {
        method: 'POST',
        url: '/api/users/contacts',
        payload: { email: `${friend}@example.test`, name: friend },
      });
    expect((await add('first')).statusCode).toBe(201);
    await get('ru2', '/api/users/contacts');
    await setTier('ru2', 'Free');
    // Free allows one contact, which ru2 has: the add reads the row afresh and refuses.
    expect((await add('second')).statusCode).toBe(403);
  });
});
