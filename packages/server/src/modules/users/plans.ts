import type { SubscriptionLimits } from '@coffer/contracts';
import type { PlanLimits, Tier } from '../../config.js';
import type { UserRow } from '../../infra/db/schema.js';

/** The tier a user is on now: a paid tier whose period has ended falls back to Free. */
export function effectiveTier(user: UserRow, now: Date): Tier {
  if (user.tier === 'Free') return 'Free';
  if (user.current_period_end !== null && new Date(user.current_period_end) <= now) return 'Free';
  return user.tier;
}

/**
 * Start of the period the monthly upload/download limits count from: the paid billing period while one
 * runs, otherwise the current calendar month (UTC), so free counters reset on the 1st.
 */
export function periodStart(user: UserRow, now: Date): Date {
  if (effectiveTier(user, now) !== 'Free' && user.current_period_start !== '') {
    return new Date(user.current_period_start);
  }
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

export function limitsFor(
  user: UserRow,
  plans: Record<Tier, PlanLimits>,
  now: Date,
): { tier: Tier; limits: SubscriptionLimits } {
  const tier = effectiveTier(user, now);
  return {
    tier,
    limits: { ...plans[tier], currentPeriodEnd: tier === 'Free' ? null : user.current_period_end },
  };
}

export const BYTES_PER_GB = 1024 ** 3;
