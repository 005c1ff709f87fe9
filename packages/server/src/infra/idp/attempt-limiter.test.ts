import { describe, expect, it } from 'vitest';
import { createAttemptLimiter, waitText } from './attempt-limiter.js';

describe('attempt limiter', () => {
  function limiter(limit = 3, maxKeys?: number) {
    let now = 1_000_000;
    const created = createAttemptLimiter({
      limit,
      windowMs: 60_000,
      now: () => now,
      ...(maxKeys === undefined ? {} : { maxKeys }),
    });
    return { limiter: created, advance: (ms: number) => (now += ms) };
  }

  it('allows `limit` attempts per window, then says how long to wait', () => {
    const { limiter: l, advance } = limiter();
    for (let i = 0; i < 3; i += 1) {
      expect(l.retryAfterSec('a')).toBe(0);
      l.hit('a');
    }
    expect(l.retryAfterSec('a')).toBe(60);
    expect(l.retryAfterSec('b')).toBe(0);
    advance(59_500);
    expect(l.retryAfterSec('a')).toBe(1);
    advance(500);
    expect(l.retryAfterSec('a')).toBe(0);
  });

  it('forgets a key on reset', () => {
    const { limiter: l } = limiter(1);
    l.hit('a');
    expect(l.retryAfterSec('a')).toBeGreaterThan(0);
    l.reset('a');
    expect(l.retryAfterSec('a')).toBe(0);
  });

  it('keeps memory bounded', () => {
    const { limiter: l } = limiter(1, 2);
    l.hit('a');
    l.hit('b');
    l.hit('c');
    // The oldest key made room.
    expect(l.retryAfterSec('a')).toBe(0);
    expect(l.retryAfterSec('c')).toBeGreaterThan(0);
  });

  it('words the wait', () => {
    expect(waitText(1)).toBe('1 second');
    expect(waitText(30)).toBe('30 seconds');
    expect(waitText(60)).toBe('1 minute');
    expect(waitText(61)).toBe('2 minutes');
    expect(waitText(900)).toBe('15 minutes');
  });
});
