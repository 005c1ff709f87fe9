import { describe, expect, it } from 'vitest';
import type { UserRow } from '../../infra/db/schema.js';
import type { BillingEvent } from '../../infra/payments/payment-provider.js';
import { addOneMonth, cancelsAtPeriodEnd, subscriptionChangeFor } from './subscription-rules.js';

const at = new Date('2030-05-10T12:00:00Z');
const period = { start: new Date('2030-05-10T12:00:00Z'), end: new Date('2030-06-10T12:00:00Z') };
const base = { id: 'evt_1', providerType: 'x', created: at };

function user(overrides: Partial<UserRow> = {}): UserRow {
  return {
    id: 'u1',
    issuer: 'https://issuer.test',
    subject: 's1',
    email: 'u1@example.test',
    name: 'U',
    country: null,
    idp: 'local',
    tier: 'Free',
    current_period_start: '2030-05-01T00:00:00.000Z',
    current_period_end: null,
    stripe_customer_id: 'cus_1',
    stripe_subscription_id: null,
    created_at: '2030-01-01T00:00:00.000Z',
    updated_at: '2030-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const paid = user({
  tier: 'Personal',
  current_period_start: period.start.toISOString(),
  current_period_end: period.end.toISOString(),
  stripe_subscription_id: 'sub_1',
});

describe('subscription rules', () => {
  it('checkout: Personal, subscription stored, a new period starts (its end comes with the invoice)', () => {
    const event: BillingEvent = {
      ...base,
      kind: 'checkout.completed',
      userId: 'u1',
      customerId: 'cus_1',
      subscriptionId: 'sub_1',
    };
    expect(subscriptionChangeFor(user({ stripe_customer_id: null }), event)).toEqual({
      tier: 'Personal',
      stripe_customer_id: 'cus_1',
      stripe_subscription_id: 'sub_1',
      current_period_start: at.toISOString(),
      current_period_end: null,
    });
    // After the invoice came first, the period stays.
    expect(subscriptionChangeFor(paid, event)).toEqual({ tier: 'Personal', stripe_subscription_id: 'sub_1' });
  });

  it('subscription updates: active or trialing is Personal; cancel at period end stops renewal; others are Free', () => {
    const update = (active: boolean, cancelAtPeriodEnd: boolean): BillingEvent => ({
      ...base,
      kind: 'subscription.updated',
      customerId: 'cus_1',
      subscriptionId: 'sub_1',
      active,
      cancelAtPeriodEnd,
      period,
    });
    expect(subscriptionChangeFor(user(), update(true, false))).toEqual({
      tier: 'Personal',
      stripe_subscription_id: 'sub_1',
      current_period_start: period.start.toISOString(),
      current_period_end: period.end.toISOString(),
    });
    expect(subscriptionChangeFor(paid, update(true, true))).toMatchObject({
      tier: 'Personal',
      stripe_subscription_id: null,
    });
    expect(subscriptionChangeFor(paid, update(false, false))).toEqual({
      tier: 'Free',
      stripe_subscription_id: 'sub_1',
    });
    // Another subscription than the stored one is stale.
    expect(subscriptionChangeFor(user({ stripe_subscription_id: 'sub_2' }), update(false, false))).toBeNull();
  });

  it('deletion ends the tier; invoices only move the period forward', () => {
    const deleted: BillingEvent = {
      ...base,
      kind: 'subscription.deleted',
      customerId: 'cus_1',
      subscriptionId: 'sub_1',
    };
    expect(subscriptionChangeFor(paid, deleted)).toEqual({
      tier: 'Free',
      stripe_subscription_id: null,
      current_period_end: null,
    });
    expect(subscriptionChangeFor(user({ stripe_subscription_id: 'sub_new' }), deleted)).toBeNull();

    const invoice = (start: Date, end: Date): BillingEvent => ({
      ...base,
      kind: 'invoice.paid',
      customerId: 'cus_1',
      subscriptionId: 'sub_1',
      period: { start, end },
    });
    const older = invoice(new Date('2030-04-10T12:00:00Z'), new Date('2030-05-10T12:00:00Z'));
    expect(subscriptionChangeFor(paid, older)).toEqual({ tier: 'Personal' });
    const next = invoice(period.end, new Date('2030-07-10T12:00:00Z'));
    expect(subscriptionChangeFor(paid, next)).toEqual({
      tier: 'Personal',
      current_period_start: period.end.toISOString(),
      current_period_end: '2030-07-10T12:00:00.000Z',
    });
    expect(subscriptionChangeFor(paid, { ...base, kind: 'ignored' })).toBeNull();
  });

  it('knows a cancelled subscription that still runs', () => {
    const cancelled = { ...paid, stripe_subscription_id: null };
    expect(cancelsAtPeriodEnd(cancelled, at)).toBe(true);
    expect(cancelsAtPeriodEnd(paid, at)).toBe(false);
    expect(cancelsAtPeriodEnd(cancelled, period.end)).toBe(false);
    expect(cancelsAtPeriodEnd(user(), at)).toBe(false);
  });

  it('adds a calendar month, clamping to the end of shorter months', () => {
    expect(addOneMonth(new Date('2030-01-31T10:00:00Z')).toISOString()).toBe('2030-02-28T10:00:00.000Z');
    expect(addOneMonth(new Date('2032-01-31T10:00:00Z')).toISOString()).toBe('2032-02-29T10:00:00.000Z');
    expect(addOneMonth(new Date('2030-12-15T00:00:00Z')).toISOString()).toBe('2031-01-15T00:00:00.000Z');
    expect(addOneMonth(new Date('2030-03-31T23:59:59Z')).toISOString()).toBe('2030-04-30T23:59:59.000Z');
  });
});
