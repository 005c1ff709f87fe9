import type { Identity } from '../../infra/auth/identity.js';
import type { UserRow } from '../../infra/db/schema.js';

/**
 * How long a user row read for one request may answer another on the same instance. A browser sends its
 * page's calls in a burst (files, stats, contacts, shares, uploads); this covers the burst. Per instance:
 * another instance's change (a plan bought or cancelled) shows here at most this late, and only on the
 * routes that opt in (see `recentUser` in auth.plugin.ts), which grant nothing from the row.
 */
export const RECENT_USER_MS = 2000;

/** Rows kept at most (oldest first out): a bound on memory, far above the users active in 2 s. */
export const RECENT_USERS_MAX = 10_000;

interface Entry {
  /** A frozen copy: a handler changing the row it was given cannot change what later requests get. */
  row: Readonly<UserRow>;
  /** `now()` in ms when the row was read from the database. */
  readAt: number;
}

/** Recently read user rows, keyed by the identity (issuer, subject) they belong to. */
export interface RecentUsers {
  /** The row read for this identity within {@link RECENT_USER_MS}, if any. */
  get(identity: Identity): Readonly<UserRow> | undefined;
  /** Remember the row just read (or written) for this identity. */
  remember(identity: Identity, row: UserRow): void;
}

function keyOf(identity: Identity): string {
  // JSON keeps the two parts apart whatever characters an issuer or subject holds.
  return JSON.stringify([identity.issuer, identity.subject]);
}

export function createRecentUsers(now: () => Date, maxEntries = RECENT_USERS_MAX): RecentUsers {
  const entries = new Map<string, Entry>();
  return {
    get(identity) {
      const key = keyOf(identity);
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      const age = now().getTime() - entry.readAt;
      // A clock stepping back counts as expired too: never trust an entry of unknown age.
      if (age >= 0 && age < RECENT_USER_MS) return entry.row;
      entries.delete(key);
      return undefined;
    },
    remember(identity, row) {
      const key = keyOf(identity);
      // Re-inserting moves the key to the end, so the first key is always the oldest read.
      entries.delete(key);
      entries.set(key, { row: Object.freeze({ ...row }), readAt: now().getTime() });
      if (entries.size > maxEntries) {
        const oldest = entries.keys().next();
        if (oldest.done !== true) entries.delete(oldest.value);
      }
    },
  };
}
