/**
 * Counts attempts per key (an IP address, an email) in fixed windows, in memory. Sign-in guessing is
 * slowed per server process; behind a load balancer each server keeps its own counts, which still
 * bounds guessing to (servers × limit) per window.
 */
export interface AttemptLimiter {
  /** Seconds until `key` may try again, or 0 when it is not limited. */
  retryAfterSec(key: string): number;
  /** Records one attempt by `key`. */
  hit(key: string): void;
  /** Forgets `key` (after a successful sign-in). */
  reset(key: string): void;
}

export interface AttemptLimiterOptions {
  /** Attempts allowed per window. */
  limit: number;
  windowMs: number;
  now?: () => number;
  /** Keys tracked at most; beyond it, expired windows are swept, then the oldest dropped. */
  maxKeys?: number;
}

export function createAttemptLimiter(options: AttemptLimiterOptions): AttemptLimiter {
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 100_000;
  const windows = new Map<string, { count: number; resetAt: number }>();

  function current(key: string): { count: number; resetAt: number } | undefined {
    const entry = windows.get(key);
    if (entry !== undefined && entry.resetAt <= now()) {
      windows.delete(key);
      return undefined;
    }
    return entry;
  }

  function makeRoom(): void {
    if (windows.size < maxKeys) return;
    const at = now();
    for (const [key, entry] of windows) if (entry.resetAt <= at) windows.delete(key);
    // Still full: drop the oldest entries (Map keeps insertion order).
    for (const key of windows.keys()) {
      if (windows.size < maxKeys) break;
      windows.delete(key);
    }
  }

  return {
    retryAfterSec(key) {
      const entry = current(key);
      if (entry === undefined || entry.count < options.limit) return 0;
      return Math.max(1, Math.ceil((entry.resetAt - now()) / 1000));
    },
    hit(key) {
      const entry = current(key);
      if (entry !== undefined) {
        entry.count += 1;
        return;
      }
      makeRoom();
      windows.set(key, { count: 1, resetAt: now() + options.windowMs });
    },
    reset(key) {
      windows.delete(key);
    },
  };
}

/** "Please wait 15 minutes", "Please wait 1 minute", "Please wait 30 seconds". */
export function waitText(retryAfterSec: number): string {
  if (retryAfterSec < 60) return `${retryAfterSec} second${retryAfterSec === 1 ? '' : 's'}`;
  const minutes = Math.ceil(retryAfterSec / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
