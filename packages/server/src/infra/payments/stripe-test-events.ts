/**
 * Stripe webhook deliveries for tests: event JSON in the shape Stripe sends (API version of the SDK),
 * signed with the SDK's own test-header helper, so verification runs exactly as in production.
 */
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';

const unix = (date: Date) => Math.floor(date.getTime() / 1000);
const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

export interface SignedDelivery {
  payload: string;
  headers: { 'content-type': string; 'stripe-signature': string };
}

export interface StripeEventJson {
  id: string;
  object: 'event';
  type: string;
  created: number;
  api_version: string;
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  data: { object: Record<string, unknown> };
}

export function stripeEvent(
  type: string,
  object: Record<string, unknown>,
  options: { id?: string; at?: Date } = {},
): StripeEventJson {
  return {
    id: options.id ?? newId('evt'),
    object: 'event',
    type,
    created: unix(options.at ?? new Date()),
    api_version: Stripe.API_VERSION,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  };
}

/** Signs an event (or any text) as Stripe would for the endpoint with `secret`. */
export function signedDelivery(
  event: StripeEventJson | string,
  secret: string,
  timestamp?: Date,
): SignedDelivery {
  const payload = typeof event === 'string' ? event : JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret,
    ...(timestamp === undefined ? {} : { timestamp: unix(timestamp) }),
  });
  return { payload, headers: { 'content-type': 'application/json', 'stripe-signature': signature } };
}

export function checkoutSessionCompleted(input: {
  userId: string;
  customerId: string;
  subscriptionId: string;
  paymentStatus?: 'paid' | 'unpaid' | 'no_payment_required';
}): Record<string, unknown> {
  return {
    id: newId('cs_test'),
    object: 'checkout.session',
    mode: 'subscription',
    status: 'complete',
    payment_status: input.paymentStatus ?? 'paid',
    client_reference_id: input.userId,
    customer: input.customerId,
    subscription: input.subscriptionId,
    url: null,
  };
}

export function subscriptionObject(input: {
  subscriptionId: string;
  customerId: string;
  status: string;
  start: Date;
  end: Date;
  cancelAtPeriodEnd?: boolean;
}): Record<string, unknown> {
  return {
    id: input.subscriptionId,
    object: 'subscription',
    customer: input.customerId,
    status: input.status,
    cancel_at_period_end: input.cancelAtPeriodEnd ?? false,
    items: {
      object: 'list',
      has_more: false,
      data: [
        {
          id: newId('si'),
          object: 'subscription_item',
          current_period_start: unix(input.start),
          current_period_end: unix(input.end),
          price: { id: 'price_test', object: 'price' },
        },
      ],
    },
  };
}

export function paidInvoice(input: {
  customerId: string;
  subscriptionId: string;
  start: Date;
  end: Date;
}): Record<string, unknown> {
  return {
    id: newId('in'),
    object: 'invoice',
    customer: input.customerId,
    status: 'paid',
    billing_reason: 'subscription_cycle',
    // The invoice's own period is the previous one; the line carries the period paid for.
    period_start: unix(input.start) - 30 * 86400,
    period_end: unix(input.start),
    parent: {
      type: 'subscription_details',
      subscription_details: { subscription: input.subscriptionId, metadata: {} },
    },
    lines: {
      object: 'list',
      has_more: false,
      data: [
        { id: newId('il'), object: 'line_item', period: { start: unix(input.start), end: unix(input.end) } },
      ],
    },
  };
}
