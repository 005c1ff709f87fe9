import type { StatsResponse } from '@coffer/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../infra/db/schema.js';
import { startFakeStripe } from '../../infra/payments/stripe-fake-server.js';
import type { FakeStripe } from '../../infra/payments/stripe-fake-server.js';
import {
  checkoutSessionCompleted,
  paidInvoice,
  signedDelivery,
  stripeEvent,
  subscriptionObject,
} from '../../infra/payments/stripe-test-events.js';
import type { StripeEventJson } from '../../infra/payments/stripe-test-events.js';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { startPaymentsTestApp, TEST_PUBLIC_URL, testClock } from './payments.test-harness.js';
import type { PaymentsTestApp } from './payments.test-harness.js';

const WEBHOOK_SECRET = 'whsec_test_secret_for_coffer';
const PRICE = 'price_1TestPersonalMonthly';
const DAY = 24 * 60 * 60 * 1000;
const profile = `${TEST_PUBLIC_URL}/profile`;

describe.each(dialectsUnderTest)('payments with Stripe ($name)', ({ open }) => {
  let database: TestDatabase;
  let stripe: FakeStripe;
  let t: PaymentsTestApp;
  const clock = testClock();

  beforeAll(async () => {
    database = await open();
    stripe = await startFakeStripe();
    t = await startPaymentsTestApp({
      database,
      clock,
      env: {
        STRIPE_SECRET_KEY: stripe.secretKey,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_PRICE_ID: PRICE,
        STRIPE_API_BASE: stripe.apiBase,
        PLAN_LIMITS_FREE: '{"maxContacts": 2}',
        PLAN_LIMITS_PERSONAL: '{"maxContacts": 50}',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
    await database.destroy();
  });

  const stats = async (user: string) =>
    (await t.as(user, { method: 'GET', url: '/api/users/stats' })).json<StatsResponse>();
  const userRow = async (user: string): Promise<UserRow> =>
    database.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', `${user}@example.test`)
      .executeTakeFirstOrThrow();
  const checkout = (user: string | null, body: Record<string, string> = {}) =>
    t.as(user, {
      method: 'POST',
      url: '/api/payments/checkout',
      payload: { priceId: PRICE, successUrl: profile, cancelUrl: profile, ...body },
    });
  const deliver = (event: StripeEventJson, secret = WEBHOOK_SECRET) => {
    const { payload, headers } = signedDelivery(event, secret);
    return t.app.inject({ method: 'POST', url: '/api/payments/webhook', payload, headers });
  };

  /** Checkout for a new user, then the three events Stripe sends after payment. */
  async function subscribe(
    user: string,
    start: Date,
  ): Promise<{ customerId: string; subscriptionId: string }> {
    expect((await checkout(user)).statusCode).toBe(200);
    const row = await userRow(user);
    const customerId = row.stripe_customer_id ?? '';
    const subscriptionId = `sub_${user}`;
    const end = new Date(start.getTime() + 30 * DAY);
    for (const event of [
      stripeEvent(
        'checkout.session.completed',
        checkoutSessionCompleted({ userId: row.id, customerId, subscriptionId }),
      ),
      stripeEvent(
        'customer.subscription.updated',
        subscriptionObject({ subscriptionId, customerId, status: 'active', start, end }),
      ),
      stripeEvent('invoice.paid', paidInvoice({ customerId, subscriptionId, start, end })),
    ]) {
      expect((await deliver(event)).statusCode).toBe(200);
    }
    return { customerId, subscriptionId };
  }

  it('starts a subscription checkout for the user, creating the Stripe customer once', async () => {
    const first = await checkout('carla');
    expect(first.statusCode).toBe(200);
    expect(first.json<{ url: string }>().url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    const row = await userRow('carla');
    expect(row.stripe_customer_id).toMatch(/^cus_/);

    const second = await checkout('carla');
    expect(second.statusCode).toBe(200);
    expect((await userRow('carla')).stripe_customer_id).toBe(row.stripe_customer_id);

    const customerCalls = stripe.requests.filter((r) => r.path === '/v1/customers');
    expect(customerCalls).toHaveLength(1);
    expect(customerCalls[0]).toMatchObject({
      idempotencyKey: `coffer-customer-${row.id}`,
      params: { email: 'carla@example.test', name: 'Carla', 'metadata[cofferUserId]': row.id },
    });
    const sessions = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions');
    expect(sessions).toHaveLength(2);
    expect(sessions[0]?.params).toMatchObject({
      mode: 'subscription',
      customer: row.stripe_customer_id,
      client_reference_id: row.id,
      'line_items[0][price]': PRICE,
      'line_items[0][quantity]': '1',
      success_url: profile,
      cancel_url: profile,
    });
  });

  it('applies the webhooks to tier, period and limits; a replayed event applies once', async () => {
    const start = new Date(clock.now().getTime() - DAY);
    expect((await stats('paula')).subscription.tier).toBe('Free');
    const { customerId, subscriptionId } = await subscribe('paula', start);

    const paid = await stats('paula');
    expect(paid.subscription.tier).toBe('Personal');
    expect(paid.subscription.limits.maxContacts).toBe(50);
    const end = new Date(start.getTime() + 30 * DAY);
    expect(paid.subscription.limits.currentPeriodEnd).toBe(
      new Date(Math.floor(end.getTime() / 1000) * 1000).toISOString(),
    );

    // A renewal, delivered twice: the period moves once, and the second delivery is a no-op.
    const nextEnd = new Date(end.getTime() + 30 * DAY);
    const renewal = stripeEvent(
      'invoice.paid',
      paidInvoice({ customerId, subscriptionId, start: end, end: nextEnd }),
    );
    expect((await deliver(renewal)).statusCode).toBe(200);
    const afterRenewal = await userRow('paula');
    expect((await deliver(renewal)).json()).toEqual({ received: true });
    const afterReplay = await userRow('paula');
    expect(afterReplay).toEqual(afterRenewal);
    expect(afterRenewal.current_period_end).toBe(
      new Date(Math.floor(nextEnd.getTime() / 1000) * 1000).toISOString(),
    );

    const recorded = await database.db
      .selectFrom('payment_events')
      .select('id')
      .where('id', '=', renewal.id)
      .execute();
    expect(recorded).toHaveLength(1);

    // A replayed older event cannot undo what came after it: the ids were all seen.
    const cancelled = stripeEvent(
      'customer.subscription.deleted',
      subscriptionObject({ subscriptionId, customerId, status: 'canceled', start, end }),
    );
    expect((await deliver(cancelled)).statusCode).toBe(200);
    expect((await stats('paula')).subscription.tier).toBe('Free');
    expect((await deliver(renewal)).statusCode).toBe(200);
    expect((await stats('paula')).subscription).toMatchObject({
      tier: 'Free',
      limits: { maxContacts: 2, currentPeriodEnd: null },
    });
  });

  it('refuses a bad signature with 400 and changes nothing', async () => {
    const start = new Date(clock.now().getTime() - DAY);
    const { customerId, subscriptionId } = await subscribe('bert', start);
    const before = await userRow('bert');
    const deleted = stripeEvent(
      'customer.subscription.deleted',
      subscriptionObject({ subscriptionId, customerId, status: 'canceled', start, end: start }),
    );

    const wrongSecret = await deliver(deleted, 'whsec_someone_else');
    expect(wrongSecret.statusCode).toBe(400);
    expect(wrongSecret.json()).toEqual({ code: 'VALIDATION_FAILED', message: 'Invalid webhook signature' });

    const { payload, headers } = signedDelivery(deleted, WEBHOOK_SECRET);
    const tampered = payload.replace('"canceled"', '"cancelled"');
    const altered = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      payload: tampered,
      headers,
    });
    expect(altered.statusCode).toBe(400);

    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      payload,
      headers: { 'content-type': 'application/json' },
    });
    expect(unsigned.statusCode).toBe(400);

    const stale = signedDelivery(deleted, WEBHOOK_SECRET, new Date(Date.now() - 60 * 60 * 1000));
    const old = await t.app.inject({ method: 'POST', url: '/api/payments/webhook', ...stale });
    expect(old.statusCode).toBe(400);

    expect(await userRow('bert')).toEqual(before);
    const seen = await database.db
      .selectFrom('payment_events')
      .select('id')
      .where('id', '=', deleted.id)
      .execute();
    expect(seen).toHaveLength(0);
    expect((await stats('bert')).subscription.tier).toBe('Personal');
  });

  it('keeps the tier until the period ends after a cancellation, then Free on customer.subscription.deleted', async () => {
    const start = new Date(clock.now().getTime() - DAY);
    const end = new Date(start.getTime() + 30 * DAY);
    const { customerId, subscriptionId } = await subscribe('dora', start);

    const cancelling = stripeEvent(
      'customer.subscription.updated',
      subscriptionObject({
        subscriptionId,
        customerId,
        status: 'active',
        start,
        end,
        cancelAtPeriodEnd: true,
      }),
    );
    expect((await deliver(cancelling)).statusCode).toBe(200);
    expect((await stats('dora')).subscription.tier).toBe('Personal');
    expect((await userRow('dora')).stripe_subscription_id).toBeNull();

    const deleted = stripeEvent(
      'customer.subscription.deleted',
      subscriptionObject({ subscriptionId, customerId, status: 'canceled', start, end }),
    );
    expect((await deliver(deleted)).statusCode).toBe(200);
    const free = await stats('dora');
    expect(free.subscription).toMatchObject({
      tier: 'Free',
      limits: { maxContacts: 2, currentPeriodEnd: null },
    });
  });

  it('acknowledges events it does not act on, and ignores a stale subscription', async () => {
    const unknown = await deliver(stripeEvent('customer.created', { id: 'cus_x', object: 'customer' }));
    expect(unknown.statusCode).toBe(200);

    const start = new Date(clock.now().getTime() - DAY);
    const end = new Date(start.getTime() + 30 * DAY);
    const { customerId } = await subscribe('olga', start);
    const other = stripeEvent(
      'customer.subscription.deleted',
      subscriptionObject({
        subscriptionId: 'sub_replaced_long_ago',
        customerId,
        status: 'canceled',
        start,
        end,
      }),
    );
    expect((await deliver(other)).statusCode).toBe(200);
    expect((await stats('olga')).subscription.tier).toBe('Personal');
  });

  it('lets a lapsed period fall back to Free even without a final event', async () => {
    const start = new Date(clock.now().getTime() - DAY);
    await subscribe('lena', start);
    expect((await stats('lena')).subscription.tier).toBe('Personal');
    const saved = clock.now();
    clock.set(new Date(start.getTime() + 31 * DAY));
    try {
      expect((await stats('lena')).subscription).toMatchObject({ tier: 'Free', limits: { maxContacts: 2 } });
    } finally {
      clock.set(saved);
    }
  });

  it('opens the billing portal for the customer, returning to the profile page', async () => {
    await subscribe('petra', new Date(clock.now().getTime() - DAY));
    const res = await t.as('petra', {
      method: 'POST',
      url: '/api/payments/portal',
      payload: { returnUrl: profile },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ url: string }>().url).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\/bps_/);
    const call = stripe.requests.filter((r) => r.path === '/v1/billing_portal/sessions').at(-1);
    expect(call?.params).toEqual({
      customer: (await userRow('petra')).stripe_customer_id,
      return_url: profile,
    });
  });

  it('refuses what it must not do', async () => {
    // Open redirects.
    for (const url of [
      'https://evil.example/profile',
      'http://coffer.test.evil.example/',
      'http://user:pw@coffer.test/x',
      'https://coffer.test/profile',
    ]) {
      const bad = await checkout('ivan', { successUrl: url });
      expect(bad.statusCode, url).toBe(400);
      expect(bad.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect((await checkout('ivan', { cancelUrl: url })).statusCode).toBe(400);
    }
    const portalAway = await t.as('ivan', {
      method: 'POST',
      url: '/api/payments/portal',
      payload: { returnUrl: 'https://evil.example/' },
    });
    expect(portalAway.statusCode).toBe(400);
    // Another price than the configured one.
    expect((await checkout('ivan', { priceId: 'price_cheaper' })).json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Unknown price',
    });
    // A portal without a customer.
    const noCustomer = await t.as('nina', {
      method: 'POST',
      url: '/api/payments/portal',
      payload: { returnUrl: profile },
    });
    expect(noCustomer.statusCode).toBe(400);
    expect(noCustomer.json()).toMatchObject({ code: 'INVALID_OPERATION' });
    // A second subscription while paid.
    await subscribe('hugo', new Date(clock.now().getTime() - DAY));
    expect((await checkout('hugo')).json()).toMatchObject({ code: 'INVALID_OPERATION' });
    // Nobody signed in.
    for (const url of ['/api/payments/checkout', '/api/payments/portal']) {
      const anonymous = await t.as(null, { method: 'POST', url, payload: { returnUrl: profile } });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    }
  });

  it('answers 502 when Stripe is down, without storing anything', async () => {
    stripe.outage = true;
    try {
      const res = await checkout('otto');
      expect(res.statusCode).toBe(502);
      expect(res.json<{ message: string }>().message).not.toContain('sk_test');
      expect((await userRow('otto')).stripe_customer_id).toBeNull();
    } finally {
      stripe.outage = false;
    }
  });

  it('publishes the price and provider for the web app', async () => {
    const config = await t.app.inject({ method: 'GET', url: '/api/config' });
    expect(config.json()).toMatchObject({
      payments: { provider: 'stripe', priceId: PRICE },
      analytics: null,
    });
  });
});
