import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { nowIso } from '../db/values.js';

/**
 * Attempt limits kept in the database, so every server instance behind a proxy enforces one limit
 * and a restart forgets nothing. Keys are hashed: the table never holds an address or an IP.
 */

export interface RateLimitRule {
  /** Part of the stored key; one counter per (rule, subject). */
  name: string;
  /** Attempts allowed per window. */
  limit: number;
  windowMs: number;
  /**
   * Without backoff, attempts over the limit are refused until the window ends. With backoff, the
   * `limit`-th attempt starts a delay, and from then on one attempt goes through per delay, which
   * doubles from `baseMs` up to `maxMs`: a guesser is slowed to a crawl, but the owner of a targeted
   * account is never locked out for longer than `maxMs`.
   */
  backoff?: { baseMs: number; maxMs: number };
}

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSec: number };

export interface RateLimiter {
  /** Counts one attempt by `subject` under `rule`, atomically, and says whether it may go ahead. */
  consume(rule: RateLimitRule, subject: string): Promise<RateLimitDecision>;
  /** Whether an attempt would be refused now, without counting one. */
  peek(rule: RateLimitRule, subject: string): Promise<RateLimitDecision>;
  /** Forgets `subject`'s attempts (a successful sign-in, a password reset). */
  reset(rule: RateLimitRule, subject: string): Promise<void>;
  /** Removes counters whose window and block are over; returns how many went. */
  deleteExpired(): Promise<number>;
}

export function rateLimitKey(rule: RateLimitRule, subject: string): string {
  return `${rule.name}:${createHash('sha256').update(subject, 'utf8').digest('hex')}`;
}

function secondsUntil(iso: string, now: Date): number {
  return Math.max(1, Math.ceil((Date.parse(iso) - now.getTime()) / 1000));
}

/** The delay before the n-th attempt over the limit (n ≥ 1). */
export function backoffDelayMs(backoff: { baseMs: number; maxMs: number }, over: number): number {
  return Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(30, over - 1));
}

export function createRateLimiter(db: Kysely<DB>, now: () => Date = () => new Date()): RateLimiter {
  async function blockedUntil(key: string, at: string): Promise<string | undefined> {
    const row = await db
      .selectFrom('rate_limits')
      .select(['count', 'window_ends_at', 'blocked_until'])
      .where('key', '=', key)
      .executeTakeFirst();
    if (row === undefined || row.blocked_until === null || row.blocked_until <= at) return undefined;
    return row.blocked_until;
  }

  return {
    async consume(rule, subject) {
      const key = rateLimitKey(rule, subject);
      const current = now();
      const at = nowIso(current);
      const windowEnd = nowIso(new Date(current.getTime() + rule.windowMs));
      // The first block an attempt over the limit causes; with backoff it is lengthened just below.
      const firstBlock =
        rule.backoff === undefined ? null : nowIso(new Date(current.getTime() + rule.backoff.baseMs));
      const fresh = sql<boolean>`rate_limits.window_ends_at <= ${at}`;
      const nextCount = sql<number>`case when ${fresh} then 1 else rate_limits.count + 1 end`;
      const nextWindow = sql<string>`case when ${fresh} then ${windowEnd} else rate_limits.window_ends_at end`;
      // One statement: concurrent attempts serialise on the row (SQLite's write lock, PostgreSQL's row
      // lock, whose ON CONFLICT … WHERE sees the latest version), so no two pass on one free slot.
      // Plain rules block once the count is over the limit; backoff rules once it reaches it.
      const blockAt = rule.backoff === undefined ? rule.limit + 1 : rule.limit;
      const row = await db
        .insertInto('rate_limits')
        .values({ key, count: 1, window_ends_at: windowEnd, blocked_until: null })
        .onConflict((oc) =>
          oc
            .column('key')
            .doUpdateSet({
              count: nextCount,
              window_ends_at: nextWindow,
              blocked_until: sql<
                string | null
              >`case when ${nextCount} >= ${blockAt} then coalesce(${firstBlock}, ${nextWindow}) else null end`,
            })
            .where(sql<boolean>`rate_limits.blocked_until is null or rate_limits.blocked_until <= ${at}`),
        )
        .returning(['count', 'window_ends_at'])
        .executeTakeFirst();
      if (row === undefined) {
        const until = await blockedUntil(key, at);
        return { allowed: false, retryAfterSec: until === undefined ? 1 : secondsUntil(until, current) };
      }
      const { count } = row;
      if (rule.backoff === undefined) {
        return count <= rule.limit
          ? { allowed: true }
          : { allowed: false, retryAfterSec: secondsUntil(row.window_ends_at, current) };
      }
      if (count < rule.limit) return { allowed: true };
      const delay = backoffDelayMs(rule.backoff, count - rule.limit + 1);
      const until = nowIso(new Date(current.getTime() + delay));
      await db.updateTable('rate_limits').set({ blocked_until: until }).where('key', '=', key).execute();
      return { allowed: true };
    },

    async peek(rule, subject) {
      const current = now();
      const until = await blockedUntil(rateLimitKey(rule, subject), nowIso(current));
      return until === undefined
        ? { allowed: true }
        : { allowed: false, retryAfterSec: secondsUntil(until, current) };
    },

    async reset(rule, subject) {
      await db.deleteFrom('rate_limits').where('key', '=', rateLimitKey(rule, subject)).execute();
    },

    async deleteExpired() {
      const at = nowIso(now());
      const result = await db
        .deleteFrom('rate_limits')
        .where('window_ends_at', '<=', at)
        .where((eb) => eb.or([eb('blocked_until', 'is', null), eb('blocked_until', '<=', at)]))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
