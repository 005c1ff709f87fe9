import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { backoffDelayMs, createRateLimiter, rateLimitKey } from './rate-limiter.js';
import type { RateLimitRule } from './rate-limiter.js';

const MINUTE = 60_000;

describe('backoffDelayMs', () => {
  it('doubles from the base up to the ceiling', () => {
    const backoff = { baseMs: 1000, maxMs: 5000 };
    expect([1, 2, 3, 4, 10].map((n) => backoffDelayMs(backoff, n))).toEqual([1000, 2000, 4000, 5000, 5000]);
  });
});

describe.each(dialectsUnderTest)('rate limiter ($name)', ({ open }) => {
  let database: TestDatabase;
  let clock = new Date('2026-11-23T12:00:00.000Z');
  const now = () => clock;
  const advance = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
  };

  beforeAll(async () => {
    database = await open();
  });
  afterAll(() => database.destroy());

  it('refuses attempts over the limit until the window ends, then counts afresh', async () => {
    const limiter = createRateLimiter(database.db, now);
    const rule: RateLimitRule = { name: 'plain', limit: 3, windowMs: 10 * MINUTE };
    for (let i = 0; i < 3; i += 1)
      expect(await limiter.consume(rule, 'a@example.test')).toEqual({ allowed: true });
    const refused = await limiter.consume(rule, 'a@example.test');
    expect(refused).toEqual({ allowed: false, retryAfterSec: 600 });
    // Another subject has its own counter.
    expect(await limiter.consume(rule, 'b@example.test')).toEqual({ allowed: true });
    advance(5 * MINUTE);
    expect(await limiter.consume(rule, 'a@example.test')).toEqual({ allowed: false, retryAfterSec: 300 });
    expect(await limiter.peek(rule, 'a@example.test')).toEqual({ allowed: false, retryAfterSec: 300 });
    advance(5 * MINUTE);
    expect(await limiter.consume(rule, 'a@example.test')).toEqual({ allowed: true });
  });

  it('lets 10 concurrent attempts through exactly up to the limit', async () => {
    const limiter = createRateLimiter(database.db, now);
    const rule: RateLimitRule = { name: 'race', limit: 4, windowMs: 10 * MINUTE };
    const results = await Promise.all(Array.from({ length: 10 }, () => limiter.consume(rule, 'racer')));
    expect(results.filter((r) => r.allowed)).toHaveLength(4);
  });

  it('with backoff, lets one attempt through per growing delay and never locks out for longer than the ceiling', async () => {
    const limiter = createRateLimiter(database.db, now);
    const rule: RateLimitRule = {
      name: 'backoff',
      limit: 2,
      windowMs: 60 * MINUTE,
      backoff: { baseMs: 10_000, maxMs: 40_000 },
    };
    expect((await limiter.consume(rule, 'owner')).allowed).toBe(true);
    // The limit-th attempt goes through and starts the delay: 10 s, then 20 s, then 40 s at most.
    expect((await limiter.consume(rule, 'owner')).allowed).toBe(true);
    expect(await limiter.consume(rule, 'owner')).toEqual({ allowed: false, retryAfterSec: 10 });
    advance(10_000);
    expect((await limiter.consume(rule, 'owner')).allowed).toBe(true);
    expect(await limiter.peek(rule, 'owner')).toEqual({ allowed: false, retryAfterSec: 20 });
    advance(20_000);
    expect((await limiter.consume(rule, 'owner')).allowed).toBe(true);
    advance(40_000);
    expect((await limiter.consume(rule, 'owner')).allowed).toBe(true);
    expect(await limiter.peek(rule, 'owner')).toEqual({ allowed: false, retryAfterSec: 40 });
    // Concurrent attempts at the moment a block ends: exactly one goes through.
    advance(40_000);
    const burst = await Promise.all(Array.from({ length: 8 }, () => limiter.consume(rule, 'owner')));
    expect(burst.filter((r) => r.allowed)).toHaveLength(1);
    await limiter.reset(rule, 'owner');
    expect(await limiter.peek(rule, 'owner')).toEqual({ allowed: true });
  });

  it('stores hashed keys only and deletes expired counters', async () => {
    const limiter = createRateLimiter(database.db, now);
    const rule: RateLimitRule = { name: 'hashing', limit: 1, windowMs: MINUTE };
    await limiter.consume(rule, 'secret@example.test');
    const keys = (await database.db.selectFrom('rate_limits').select('key').execute()).map((r) => r.key);
    expect(keys).toContain(rateLimitKey(rule, 'secret@example.test'));
    expect(keys.join(' ')).not.toContain('secret');
    advance(2 * 60 * MINUTE);
    expect(await limiter.deleteExpired()).toBeGreaterThan(0);
    expect(await limiter.peek(rule, 'secret@example.test')).toEqual({ allowed: true });
  });
});
