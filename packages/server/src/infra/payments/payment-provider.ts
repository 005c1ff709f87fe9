import { CodedError } from '../../coded-error.js';

/**
 * The card payment provider behind the upgrade checkout and the billing portal. Two implementations
 * sit beside this file: Stripe (production) and a built-in demo (the zero-config default).
 *
 * Both report what happened as provider-neutral {@link BillingEvent}s, and the payments service applies
 * those to the user's tier in one place, whether they arrived as a signed Stripe webhook or were
 * built by the demo's confirm button.
 */

/** A paid billing period. */
export interface BillingPeriod {
  start: Date;
  end: Date;
}

interface BillingEventBase {
  /** The provider's event id (Stripe `evt_…`, demo `demo_evt_…`); each id is applied once. */
  id: string;
  /** The provider's own name for the event, recorded with the id. */
  providerType: string;
  created: Date;
}

/** A checkout finished: the user now has a subscription (its period arrives with `invoice.paid`). */
export interface CheckoutCompletedEvent extends BillingEventBase {
  kind: 'checkout.completed';
  /** Who started the checkout (Stripe `client_reference_id`); null when the provider lost it. */
  userId: string | null;
  customerId: string | null;
  subscriptionId: string | null;
}

export interface SubscriptionUpdatedEvent extends BillingEventBase {
  kind: 'subscription.updated';
  customerId: string | null;
  subscriptionId: string;
  /** Active or trialing: the paid tier applies. */
  active: boolean;
  /** Cancelled by the user: stays paid until the period ends, then does not renew. */
  cancelAtPeriodEnd: boolean;
  period: BillingPeriod | null;
}

export interface SubscriptionDeletedEvent extends BillingEventBase {
  kind: 'subscription.deleted';
  customerId: string | null;
  subscriptionId: string;
}

/** A subscription invoice was paid: the period it paid for is the current one. */
export interface InvoicePaidEvent extends BillingEventBase {
  kind: 'invoice.paid';
  customerId: string | null;
  subscriptionId: string;
  period: BillingPeriod | null;
}

/** Any event the app does not act on; acknowledged so the provider stops retrying it. */
export interface IgnoredEvent extends BillingEventBase {
  kind: 'ignored';
}

export type BillingEvent =
  | CheckoutCompletedEvent
  | SubscriptionUpdatedEvent
  | SubscriptionDeletedEvent
  | InvoicePaidEvent
  | IgnoredEvent;

/** The person a customer record is created for. The email goes to the payment provider only. */
export interface NewCustomer {
  userId: string;
  email: string | null;
  name: string | null;
}

export interface CheckoutSessionInput {
  userId: string;
  customerId: string;
  priceId: string;
  successUrl: string;
  cancelUrl: string;
}

export interface PortalSessionInput {
  userId: string;
  customerId: string;
  returnUrl: string;
}

export interface PaymentProvider {
  readonly name: 'demo' | 'stripe';
  /** Creates the provider's customer record for a user; called once per user, the id is stored. */
  createCustomer(input: NewCustomer): Promise<string>;
  /** A hosted checkout page that subscribes the customer to the price; returns its URL. */
  createCheckoutSession(input: CheckoutSessionInput): Promise<string>;
  /** A hosted page where the customer manages (cancels, renews) the subscription; returns its URL. */
  createPortalSession(input: PortalSessionInput): Promise<string>;
  /**
   * Checks a webhook's signature over the exact bytes received and reads the event.
   * @throws {WebhookSignatureError} when the signature is missing, wrong or too old.
   */
  verifyWebhook(rawBody: Uint8Array, signature: string | undefined): BillingEvent;
}

/** A webhook whose signature does not verify: answered with 400, and nothing changes. */
export class WebhookSignatureError extends CodedError {
  readonly code = 'WEBHOOK_SIGNATURE_INVALID';
  constructor(message = 'Invalid webhook signature', options?: ErrorOptions) {
    super(message, options);
  }
}

/** The payment provider failed or could not be reached. */
export class PaymentProviderError extends CodedError {
  readonly code = 'PAYMENT_PROVIDER_FAILED';
}
