import Stripe from 'stripe';
import type { StripeSettings } from '../../config.js';
import type { BillingEvent, PaymentProvider } from './payment-provider.js';
import { PaymentProviderError, WebhookSignatureError } from './payment-provider.js';
import { billingEventOf } from './stripe-events.js';

/** SDK options that point it at another API origin (`STRIPE_API_BASE`, e.g. a local fake in tests). */
function endpointOptions(
  apiBase: string | undefined,
): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (apiBase === undefined) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    host: url.hostname,
    port: url.port === '' ? (protocol === 'http' ? 80 : 443) : Number(url.port),
    protocol,
  };
}

async function call<T>(what: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (cause) {
    // The SDK's message may quote request parameters; keep it in `cause` (logged), not in the answer.
    throw new PaymentProviderError(`Stripe: could not ${what}`, { cause });
  }
}

/**
 * Stripe through its official SDK: Checkout Sessions in subscription mode, Billing Portal sessions,
 * and webhooks verified with the endpoint's signing secret over the raw request body.
 */
export function createStripePaymentProvider(settings: StripeSettings): PaymentProvider {
  const stripe = new Stripe(settings.secretKey, {
    ...endpointOptions(settings.apiBase),
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
  });

  return {
    name: 'stripe',

    async createCustomer({ userId, email, name }) {
      const customer = await call('create the customer', () =>
        stripe.customers.create(
          {
            ...(email === null ? {} : { email }),
            ...(name === null ? {} : { name }),
            metadata: { cofferUserId: userId },
          },
          // Two checkouts started at once create one customer, not two.
          { idempotencyKey: `coffer-customer-${userId}` },
        ),
      );
      return customer.id;
    },

    async createCheckoutSession({ userId, customerId, priceId, successUrl, cancelUrl }) {
      const session = await call('start the checkout', () =>
        stripe.checkout.sessions.create({
          mode: 'subscription',
          customer: customerId,
          client_reference_id: userId,
          line_items: [{ price: priceId, quantity: 1 }],
          success_url: successUrl,
          cancel_url: cancelUrl,
          metadata: { cofferUserId: userId },
          subscription_data: { metadata: { cofferUserId: userId } },
        }),
      );
      if (session.url === null) throw new PaymentProviderError('Stripe: the checkout session has no URL');
      return session.url;
    },

    async createPortalSession({ customerId, returnUrl }) {
      const session = await call('open the billing portal', () =>
        stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }),
      );
      return session.url;
    },

    verifyWebhook(rawBody, signature): BillingEvent {
      if (signature === undefined || signature === '')
        throw new WebhookSignatureError('Missing Stripe-Signature header');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, settings.webhookSecret);
      } catch (cause) {
        throw new WebhookSignatureError('Invalid webhook signature', { cause });
      }
      return billingEventOf(event);
    },
  };
}
