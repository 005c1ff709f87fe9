/**
 * Routes that only read the caller's own data may answer from a user row this instance read a moment
 * ago; routes that grant anything from the row (plan limits) always read it afresh, so a plan changed by
 * another instance (a payment webhook) is enforced at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../test/app-harness.js';
import type { TestApp } from '../../test/app-harness.js';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { RECENT_USER_MS } from './recent-users.js';

const FREE = { maxContacts: 1 };
const PERSONAL = { maxContacts: 100 };

describe.each(dialectsUnderTest)('recently read users ($name)', ({ open }) => {
  let database: TestDatabase;
  let t: TestApp;
  let clock = Date.now();

  beforeAll(async () => {
    database = await open();
    t = await startTestApp({
      database,
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
  const tierShown = async (name: string) =>
    (await t.as(name, { method: 'GET', url: '/api/users/stats' })).json<{ subscription: { tier: string } }>()
      .subscription.tier;
  const addContact = (name: string, friend: string) =>
    t.as(name, {
      method: 'POST',
      url: '/api/users/contacts',
      payload: { email: `${friend}@example.test`, name: friend },
    });

  it(`shows a plan changed elsewhere on read-only routes within ${String(RECENT_USER_MS)} ms`, async () => {
    expect(await tierShown('ru1')).toBe('Free');
    await setTier('ru1', 'Personal');
    // The row read for the call before answers this one: no user query.
    expect(await tierShown('ru1')).toBe('Free');
    clock += RECENT_USER_MS;
    expect(await tierShown('ru1')).toBe('Personal');
  });

  it('enforces a plan cancelled elsewhere at once, however recently the row was read', async () => {
    await tierShown('ru2');
    await setTier('ru2', 'Personal');
    clock += RECENT_USER_MS;
    expect(await tierShown('ru2')).toBe('Personal');
    expect((await addContact('ru2', 'first')).statusCode).toBe(201);
    await setTier('ru2', 'Free');
    expect(await tierShown('ru2')).toBe('Personal');
    // Free allows one contact, which ru2 has: the add reads the row afresh and refuses.
    expect((await addContact('ru2', 'second')).statusCode).toBe(403);
  });
});
