import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { createDemoSessionTokens } from './demo-sessions.js';
import { PaymentProviderError } from './payment-provider.js';
import { runPaymentProviderContract } from './payment-provider.contract.js';
import { createDemoPaymentProvider } from './payment-provider.demo.js';
import { createStripePaymentProvider } from './payment-provider.stripe.js';
import { startFakeStripe } from './stripe-fake-server.js';
import {
  checkoutSessionCompleted,
  paidInvoice,
  signedDelivery,
  stripeEvent,
  subscriptionObject,
} from './stripe-test-events.js';

const WEBHOOK_SECRET = 'whsec_contract';

runPaymentProviderContract('demo', () =>
  Promise.resolve({
    provider: createDemoPaymentProvider({
      publicUrl: 'http://coffer.test',
      tokens: createDemoSessionTokens(randomBytes(32)),
    }),
    teardown: () => Promise.resolve(),
  }),
);

runPaymentProviderContract('stripe (real SDK, local fake API)', async () => {
  const fake = await startFakeStripe();
  return {
    provider: createStripePaymentProvider({
      secretKey: fake.secretKey,
      webhookSecret: WEBHOOK_SECRET,
      apiBase: fake.apiBase,
    }),
    teardown: () => fake.close(),
  };
});

describe('Stripe provider', () => {
  it('reads the four events the app acts on from signed deliveries', async () => {
    const fake = await startFakeStripe();
    try {
      const provider = createStripePaymentProvider({
        secretKey: fake.secretKey,
        webhookSecret: WEBHOOK_SECRET,
        apiBase: fake.apiBase,
      });
      const verify = (event: ReturnType<typeof stripeEvent>) => {
        const { payload, headers } = signedDelivery(event, WEBHOOK_SECRET);
        return provider.verifyWebhook(new TextEncoder().encode(payload), headers['stripe-signature']);
      };
      const start = new Date('2030-03-01T00:00:00Z');
      const end = new Date('2030-04-01T00:00:00Z');
      const ids = { customerId: 'cus_1', subscriptionId: 'sub_1' };

      expect(
        verify(stripeEvent('checkout.session.completed', checkoutSessionCompleted({ userId: 'u1', ...ids }))),
      ).toMatchObject({
        kind: 'checkout.completed',
        providerType: 'checkout.session.completed',
        userId: 'u1',
        ...ids,
      });
      expect(
        verify(
          stripeEvent(
            'customer.subscription.updated',
            subscriptionObject({ ...ids, status: 'trialing', start, end }),
          ),
        ),
      ).toMatchObject({
        kind: 'subscription.updated',
        active: true,
        cancelAtPeriodEnd: false,
        period: { start, end },
      });
      expect(
        verify(
          stripeEvent(
            'customer.subscription.updated',
            subscriptionObject({ ...ids, status: 'past_due', start, end }),
          ),
        ),
      ).toMatchObject({ kind: 'subscription.updated', active: false });
      expect(
        verify(
          stripeEvent(
            'customer.subscription.deleted',
            subscriptionObject({ ...ids, status: 'canceled', start, end }),
          ),
        ),
      ).toMatchObject({
        kind: 'subscription.deleted',
        ...ids,
      });
      expect(verify(stripeEvent('invoice.paid', paidInvoice({ ...ids, start, end })))).toMatchObject({
        kind: 'invoice.paid',
        ...ids,
        period: { start, end },
      });
      expect(verify(stripeEvent('charge.succeeded', { id: 'ch_1', object: 'charge' }))).toMatchObject({
        kind: 'ignored',
      });
      // An unpaid (asynchronous) checkout waits for its invoice.
      expect(
        verify(
          stripeEvent(
            'checkout.session.completed',
            checkoutSessionCompleted({ userId: 'u1', ...ids, paymentStatus: 'unpaid' }),
          ),
        ),
      ).toMatchObject({ kind: 'ignored' });
    } finally {
      await fake.close();
    }
  });

  it('reads periods and subscriptions in the shapes of older API versions too', () => {
    const provider = createStripePaymentProvider({
      secretKey: 'sk_test_x',
      webhookSecret: WEBHOOK_SECRET,
      apiBase: undefined,
    });
    const start = new Date('2030-03-01T00:00:00Z');
    const end = new Date('2030-04-01T00:00:00Z');
    const legacySubscription = {
      id: 'sub_1',
      object: 'subscription',
      customer: { id: 'cus_1', object: 'customer' },
      status: 'active',
      cancel_at_period_end: true,
      current_period_start: start.getTime() / 1000,
      current_period_end: end.getTime() / 1000,
      items: { object: 'list', data: [] },
    };
    const { payload, headers } = signedDelivery(
      stripeEvent('customer.subscription.updated', legacySubscription),
      WEBHOOK_SECRET,
    );
    expect(
      provider.verifyWebhook(new TextEncoder().encode(payload), headers['stripe-signature']),
    ).toMatchObject({
      customerId: 'cus_1',
      cancelAtPeriodEnd: true,
      period: { start, end },
    });
    const legacyInvoice = {
      ...paidInvoice({ customerId: 'cus_1', subscriptionId: 'sub_9', start, end }),
      parent: null,
      subscription: 'sub_9',
    };
    const invoice = signedDelivery(stripeEvent('invoice.paid', legacyInvoice), WEBHOOK_SECRET);
    expect(
      provider.verifyWebhook(new TextEncoder().encode(invoice.payload), invoice.headers['stripe-signature']),
    ).toMatchObject({
      kind: 'invoice.paid',
      subscriptionId: 'sub_9',
    });
  });

  it('sends the price, the user and the return pages to Stripe, and reports its failures', async () => {
    const fake = await startFakeStripe();
    try {
      const provider = createStripePaymentProvider({
        secretKey: fake.secretKey,
        webhookSecret: WEBHOOK_SECRET,
        apiBase: fake.apiBase,
      });
      await provider.createCheckoutSession({
        userId: 'u1',
        customerId: 'cus_1',
        priceId: 'price_abc',
        successUrl: 'http://coffer.test/profile',
        cancelUrl: 'http://coffer.test/profile?cancelled',
      });
      expect(fake.requests.at(-1)?.params).toMatchObject({
        mode: 'subscription',
        customer: 'cus_1',
        client_reference_id: 'u1',
        'line_items[0][price]': 'price_abc',
        'subscription_data[metadata][cofferUserId]': 'u1',
      });
      const wrongKey = createStripePaymentProvider({
        secretKey: 'sk_test_wrong',
        webhookSecret: WEBHOOK_SECRET,
        apiBase: fake.apiBase,
      });
      await expect(
        wrongKey.createPortalSession({ userId: 'u1', customerId: 'cus_1', returnUrl: 'http://coffer.test/' }),
      ).rejects.toBeInstanceOf(PaymentProviderError);
    } finally {
      await fake.close();
    }
  });
});

describe('payments configuration', () => {
  it('defaults to the demo provider with the demo price', () => {
    expect(loadConfig({}).payments).toEqual({
      provider: 'demo',
      priceId: 'price_personal_monthly',
      stripe: null,
    });
    expect(loadConfig({}).analytics).toBeNull();
  });

  it('uses Stripe when its key is set, and needs the webhook secret and the price with it', () => {
    const env = {
      STRIPE_SECRET_KEY: 'sk_test_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
      STRIPE_PRICE_ID: 'price_1',
    };
    expect(loadConfig({ ...env, STRIPE_API_BASE: 'http://127.0.0.1:12111' }).payments).toEqual({
      provider: 'stripe',
      priceId: 'price_1',
      stripe: { secretKey: 'sk_test_1', webhookSecret: 'whsec_1', apiBase: 'http://127.0.0.1:12111' },
    });
    expect(() => loadConfig({ ...env, STRIPE_WEBHOOK_SECRET: '' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(() => loadConfig({ ...env, STRIPE_PRICE_ID: '' })).toThrow(/STRIPE_PRICE_ID/);
    expect(() => loadConfig({ STRIPE_WEBHOOK_SECRET: 'whsec_1' })).toThrow(/STRIPE_SECRET_KEY/);
    expect(() => loadConfig({ ...env, STRIPE_API_BASE: 'not a url' })).toThrow(/STRIPE_API_BASE/);
  });

  it('turns analytics on with a PostHog key', () => {
    expect(loadConfig({ POSTHOG_KEY: 'phc_1' }).analytics).toEqual({
      key: 'phc_1',
      host: 'https://us.i.posthog.com',
    });
    expect(loadConfig({ POSTHOG_KEY: 'phc_1', POSTHOG_HOST: 'https://ph.example.org/' }).analytics).toEqual({
      key: 'phc_1',
      host: 'https://ph.example.org',
    });
  });
});
