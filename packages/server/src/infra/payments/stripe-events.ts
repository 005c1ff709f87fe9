import type Stripe from 'stripe';
import type { BillingEvent, BillingPeriod } from './payment-provider.js';

type EventOf<T extends Stripe.Event['type']> = Extract<Stripe.Event, { type: T }>;
type CheckoutSession = EventOf<'checkout.session.completed'>['data']['object'];
type Subscription = EventOf<'customer.subscription.updated'>['data']['object'];
type Invoice = EventOf<'invoice.paid'>['data']['object'];

/** An expandable Stripe reference: an id, or the object itself when expanded. */
function idOf(ref: string | { id: string } | null | undefined): string | null {
  if (ref === null || ref === undefined) return null;
  return typeof ref === 'string' ? ref : ref.id;
}

function fromUnix(seconds: unknown): Date | null {
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0
    ? new Date(seconds * 1000)
    : null;
}

function periodOf(start: unknown, end: unknown): BillingPeriod | null {
  const startDate = fromUnix(start);
  const endDate = fromUnix(end);
  return startDate !== null && endDate !== null && endDate > startDate
    ? { start: startDate, end: endDate }
    : null;
}

/**
 * The billing period of a subscription. Since API version 2025-03-31 it lives on the subscription
 * items; a webhook endpoint pinned to an older version still sends it on the subscription itself, so
 * both shapes are read.
 */
function subscriptionPeriod(subscription: Subscription): BillingPeriod | null {
  for (const item of subscription.items.data) {
    const period = periodOf(item.current_period_start, item.current_period_end);
    if (period !== null) return period;
  }
  const legacy = subscription as unknown as { current_period_start?: unknown; current_period_end?: unknown };
  return periodOf(legacy.current_period_start, legacy.current_period_end);
}

/** The subscription an invoice bills: `parent.subscription_details` now, `subscription` in older versions. */
function invoiceSubscriptionId(invoice: Invoice): string | null {
  const fromParent = idOf(invoice.parent?.subscription_details?.subscription);
  if (fromParent !== null) return fromParent;
  const legacy = invoice as unknown as { subscription?: string | { id: string } | null };
  return idOf(legacy.subscription);
}

/** The service period an invoice paid for: the latest line period (the invoice's own period_* is the previous one). */
function invoicePeriod(invoice: Invoice): BillingPeriod | null {
  let latest: BillingPeriod | null = null;
  for (const line of invoice.lines.data) {
    const period = periodOf(line.period.start, line.period.end);
    if (period !== null && (latest === null || period.end > latest.end)) latest = period;
  }
  return latest;
}

function checkoutEvent(base: Base, session: CheckoutSession): BillingEvent {
  // Only a finished subscription checkout upgrades; an async payment still pending waits for invoice.paid.
  if (
    session.mode !== 'subscription' ||
    session.status !== 'complete' ||
    session.payment_status === 'unpaid'
  ) {
    return { ...base, kind: 'ignored' };
  }
  return {
    ...base,
    kind: 'checkout.completed',
    userId: session.client_reference_id,
    customerId: idOf(session.customer),
    subscriptionId: idOf(session.subscription),
  };
}

interface Base {
  id: string;
  providerType: string;
  created: Date;
}

/** Reads a verified Stripe event as the app's billing event; types the app does not act on are 'ignored'. */
export function billingEventOf(event: Stripe.Event): BillingEvent {
  const base: Base = {
    id: event.id,
    providerType: event.type,
    created: fromUnix(event.created) ?? new Date(0),
  };
  // An if-chain rather than a switch: the app handles four of Stripe's several hundred event types.
  if (event.type === 'checkout.session.completed') return checkoutEvent(base, event.data.object);
  // `created` carries the same information as `updated`; handling it too makes the order of arrival matter less.
  if (event.type === 'customer.subscription.created' || event.type === 'customer.subscription.updated') {
    const subscription = event.data.object;
    return {
      ...base,
      kind: 'subscription.updated',
      customerId: idOf(subscription.customer),
      subscriptionId: subscription.id,
      active: subscription.status === 'active' || subscription.status === 'trialing',
      cancelAtPeriodEnd: subscription.cancel_at_period_end,
      period: subscriptionPeriod(subscription),
    };
  }
  if (event.type === 'customer.subscription.deleted') {
    return {
      ...base,
      kind: 'subscription.deleted',
      customerId: idOf(event.data.object.customer),
      subscriptionId: event.data.object.id,
    };
  }
  if (event.type === 'invoice.paid') {
    const invoice = event.data.object;
    const subscriptionId = invoiceSubscriptionId(invoice);
    // A one-off invoice has nothing to do with the plan.
    if (subscriptionId === null) return { ...base, kind: 'ignored' };
    return {
      ...base,
      kind: 'invoice.paid',
      customerId: idOf(invoice.customer),
      subscriptionId,
      period: invoicePeriod(invoice),
    };
  }
  return { ...base, kind: 'ignored' };
}
