import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PaymentProvider } from './payment-provider.js';
import { WebhookSignatureError } from './payment-provider.js';

export interface PaymentProviderHarness {
  provider: PaymentProvider;
  teardown(): Promise<void>;
}

const APP = 'http://coffer.test';

/**
 * The behaviour every {@link PaymentProvider} shares. `setup` builds a fresh provider (and whatever it
 * talks to) for each test.
 */
export function runPaymentProviderContract(name: string, setup: () => Promise<PaymentProviderHarness>): void {
  describe(`PaymentProvider contract: ${name}`, () => {
    let harness: PaymentProviderHarness;

    beforeEach(async () => {
      harness = await setup();
    });
    afterEach(async () => {
      await harness.teardown();
    });

    it('creates one customer per user', async () => {
      const a = await harness.provider.createCustomer({
        userId: 'user-a',
        email: 'a@example.test',
        name: 'A',
      });
      const b = await harness.provider.createCustomer({ userId: 'user-b', email: null, name: null });
      expect(a).toMatch(/\S/);
      expect(b).toMatch(/\S/);
      expect(a).not.toBe(b);
    });

    it('answers checkout and portal sessions with absolute http(s) URLs, a new one each time', async () => {
      const customerId = await harness.provider.createCustomer({ userId: 'user-c', email: null, name: null });
      const checkout = (successUrl: string) =>
        harness.provider.createCheckoutSession({
          userId: 'user-c',
          customerId,
          priceId: 'price_personal_monthly',
          successUrl,
          cancelUrl: `${APP}/profile`,
        });
      const first = await checkout(`${APP}/profile`);
      const second = await checkout(`${APP}/profile?again=1`);
      for (const url of [first, second]) expect(new URL(url).protocol).toMatch(/^https?:$/);
      expect(first).not.toBe(second);

      const portal = await harness.provider.createPortalSession({
        userId: 'user-c',
        customerId,
        returnUrl: `${APP}/profile`,
      });
      expect(new URL(portal).protocol).toMatch(/^https?:$/);
    });

    it('refuses unsigned and wrongly signed webhooks', () => {
      const body = new TextEncoder().encode(
        JSON.stringify({ id: 'evt_1', object: 'event', type: 'invoice.paid' }),
      );
      expect(() => harness.provider.verifyWebhook(body, undefined)).toThrow(WebhookSignatureError);
      expect(() => harness.provider.verifyWebhook(body, 't=1,v1=00')).toThrow(WebhookSignatureError);
    });
  });
}
