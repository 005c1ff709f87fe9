import type { BillingEvent } from '../../infra/payments/payment-provider.js';
import type { UserRow, UserUpdate } from '../../infra/db/schema.js';

/** The columns a billing event may change. */
export type SubscriptionChange = Pick<
  UserUpdate,
  'tier' | 'current_period_start' | 'current_period_end' | 'stripe_customer_id' | 'stripe_subscription_id'
>;

/**
 * What a billing event does to a user's subscription columns; null when it changes nothing.
 *
 * - `tier` is 'Personal' while the subscription is active or trialing, 'Free' otherwise. A paid tier
 *   whose `current_period_end` has passed already counts as Free (`effectiveTier`), so a subscription
 *   that lapses without a final event still ends on time.
 * - `stripe_subscription_id` holds the subscription that renews: it is cleared when the user cancels
 *   at period end (the tier stays until then) and when the subscription is deleted.
 * - Events of another subscription than the stored one are stale (a replaced subscription) and ignored.
 * - A period only moves forward on `invoice.paid`, so a late, older invoice cannot shorten it.
 */
export function subscriptionChangeFor(user: UserRow, event: BillingEvent): SubscriptionChange | null {
  const stored = user.stripe_subscription_id;
  const isOther = (subscriptionId: string) => stored !== null && stored !== subscriptionId;

  switch (event.kind) {
    case 'checkout.completed': {
      const change: SubscriptionChange = { tier: 'Personal' };
      if (user.stripe_customer_id === null && event.customerId !== null) {
        change.stripe_customer_id = event.customerId;
      }
      if (event.subscriptionId !== null) change.stripe_subscription_id = event.subscriptionId;
      // A new subscription starts a new period; its end arrives with the first paid invoice.
      const end = user.current_period_end;
      if (end === null || new Date(end) <= event.created) {
        change.current_period_start = event.created.toISOString();
        change.current_period_end = null;
      }
      return change;
    }
    case 'subscription.updated': {
      if (isOther(event.subscriptionId)) return null;
      // Kept while inactive (past due, unpaid), so the payment that recovers it is recognised.
      if (!event.active) return { tier: 'Free', stripe_subscription_id: event.subscriptionId };
      const change: SubscriptionChange = {
        tier: 'Personal',
        stripe_subscription_id: event.cancelAtPeriodEnd ? null : event.subscriptionId,
      };
      if (event.period !== null) {
        change.current_period_start = event.period.start.toISOString();
        change.current_period_end = event.period.end.toISOString();
      }
      return change;
    }
    case 'subscription.deleted':
      if (isOther(event.subscriptionId)) return null;
      return { tier: 'Free', stripe_subscription_id: null, current_period_end: null };
    case 'invoice.paid': {
      if (isOther(event.subscriptionId)) return null;
      const change: SubscriptionChange = { tier: 'Personal' };
      const end = user.current_period_end;
      if (event.period !== null && (end === null || event.period.end >= new Date(end))) {
        change.current_period_start = event.period.start.toISOString();
        change.current_period_end = event.period.end.toISOString();
      }
      return change;
    }
    case 'ignored':
      return null;
  }
}

/** Whether the user's paid tier ends at `current_period_end` rather than renewing (cancelled at period end). */
export function cancelsAtPeriodEnd(user: UserRow, now: Date): boolean {
  return (
    user.tier !== 'Free' &&
    user.stripe_subscription_id === null &&
    user.current_period_end !== null &&
    new Date(user.current_period_end) > now
  );
}

/** The same day of the next month (clamped: 31 January → 28/29 February), in UTC. */
export function addOneMonth(date: Date): Date {
  const next = new Date(date.getTime());
  const day = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return next;
}
