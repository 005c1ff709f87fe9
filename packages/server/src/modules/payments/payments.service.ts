import type { CheckoutRequest, PortalRequest, RedirectUrlResponse } from '@coffer/contracts';
import { ErrorCode } from '@coffer/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError, ValidationError } from '../../http/errors.js';
import type { UserRow } from '../../infra/db/schema.js';
import type { BillingEvent, PaymentProvider } from '../../infra/payments/payment-provider.js';
import { PaymentProviderError } from '../../infra/payments/payment-provider.js';
import { DEMO_ID_PREFIX } from '../../infra/payments/payment-provider.demo.js';
import { effectiveTier } from '../users/plans.js';
import type { ApplyOutcome, EventSubject, PaymentsRepo } from './payments.repo.js';
import { subscriptionChangeFor } from './subscription-rules.js';

export interface PaymentsService {
  readonly provider: PaymentProvider;
  /** POST /payments/checkout: the URL of a checkout page for the configured price. */
  startCheckout(user: UserRow, request: CheckoutRequest): Promise<RedirectUrlResponse>;
  /** POST /payments/portal: the URL of the billing portal for the user's customer. */
  openPortal(user: UserRow, request: PortalRequest): Promise<RedirectUrlResponse>;
  /**
   * POST /payments/webhook: verifies the signature over the raw body, then applies the event once.
   * @throws {WebhookSignatureError} before anything is read or written.
   */
  receiveWebhook(rawBody: Uint8Array, signature: string | undefined): Promise<ApplyOutcome>;
  /** Applies a billing event to its user's tier and period, exactly once per event id. */
  apply(event: BillingEvent): Promise<ApplyOutcome>;
}

export interface PaymentsServiceDeps {
  repo: PaymentsRepo;
  provider: PaymentProvider;
  /** Return URLs must lie on this origin, so the payment pages cannot become open redirects. */
  publicUrl: string;
  /** The only price a checkout may buy. */
  priceId: string;
  logger: FastifyBaseLogger;
  now: () => Date;
}

/** The URL unchanged when it is on the app's own origin; a 400 otherwise. */
export function sameOriginUrl(raw: string, publicUrl: string, field: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ValidationError(`${field} must be an absolute URL`);
  }
  if (url.origin !== new URL(publicUrl).origin || url.username !== '' || url.password !== '') {
    throw new ValidationError(`${field} must be a page of this app`);
  }
  return url.href;
}

function subjectOf(event: BillingEvent): EventSubject {
  switch (event.kind) {
    case 'checkout.completed':
      return { userId: event.userId, customerId: event.customerId };
    case 'subscription.updated':
    case 'subscription.deleted':
    case 'invoice.paid':
      return { userId: null, customerId: event.customerId };
    case 'ignored':
      return { userId: null, customerId: null };
  }
}

export function createPaymentsService(deps: PaymentsServiceDeps): PaymentsService {
  const { repo, provider, logger } = deps;
  const isDemoCustomer = (id: string) => id.startsWith(DEMO_ID_PREFIX.customer);
  /** A stored customer id the current provider knows (a demo customer means nothing to Stripe, and back). */
  const usableCustomer = (id: string | null): id is string =>
    id !== null && isDemoCustomer(id) === (provider.name === 'demo');

  async function upstream<T>(what: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (err) {
      if (!(err instanceof PaymentProviderError)) throw err;
      logger.error({ err }, `payment provider failed to ${what}`);
      throw new ApiError(
        502,
        'INTERNAL_ERROR',
        'The payment provider could not be reached. Please try again.',
      );
    }
  }

  async function customerOf(user: UserRow): Promise<string> {
    if (usableCustomer(user.stripe_customer_id)) return user.stripe_customer_id;
    const created = await upstream('create a customer', () =>
      provider.createCustomer({ userId: user.id, email: user.email, name: user.name }),
    );
    return repo.claimCustomerId(user.id, created, user.stripe_customer_id);
  }

  async function apply(event: BillingEvent): Promise<ApplyOutcome> {
    const outcome = await repo.applyOnce(
      { id: event.id, type: event.providerType, at: deps.now() },
      subjectOf(event),
      (user) => subscriptionChangeFor(user, event),
    );
    const log = { eventId: event.id, type: event.providerType, outcome };
    if (outcome === 'no-user' && event.kind !== 'ignored')
      logger.warn(log, 'billing event for no known user');
    else logger.info(log, 'billing event');
    return outcome;
  }

  return {
    provider,

    async startCheckout(user, request) {
      if (request.priceId !== deps.priceId) throw new ValidationError('Unknown price');
      const successUrl = sameOriginUrl(request.successUrl, deps.publicUrl, 'successUrl');
      const cancelUrl = sameOriginUrl(request.cancelUrl, deps.publicUrl, 'cancelUrl');
      // A second subscription would bill twice; a paid user changes the plan in the portal.
      if (effectiveTier(user, deps.now()) !== 'Free') {
        throw new ApiError(
          400,
          ErrorCode.INVALID_OPERATION,
          'You already have the Personal plan. Manage it from the billing portal.',
        );
      }
      const customerId = await customerOf(user);
      const url = await upstream('start a checkout', () =>
        provider.createCheckoutSession({
          userId: user.id,
          customerId,
          priceId: deps.priceId,
          successUrl,
          cancelUrl,
        }),
      );
      return { url };
    },

    async openPortal(user, request) {
      const returnUrl = sameOriginUrl(request.returnUrl, deps.publicUrl, 'returnUrl');
      const customerId = user.stripe_customer_id;
      if (!usableCustomer(customerId)) {
        throw new ApiError(400, ErrorCode.INVALID_OPERATION, 'There is no subscription to manage yet.');
      }
      const url = await upstream('open the billing portal', () =>
        provider.createPortalSession({ userId: user.id, customerId, returnUrl }),
      );
      return { url };
    },

    async receiveWebhook(rawBody, signature) {
      return apply(provider.verifyWebhook(rawBody, signature));
    },

    apply,
  };
}
