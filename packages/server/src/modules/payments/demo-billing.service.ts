import type { PlanLimits, Tier } from '../../config.js';
import type { UserRow } from '../../infra/db/schema.js';
import type { DemoSession } from '../../infra/payments/demo-sessions.js';
import type { BillingPeriod } from '../../infra/payments/payment-provider.js';
import type { DemoPaymentProvider } from '../../infra/payments/payment-provider.demo.js';
import { DEMO_ID_PREFIX, demoId } from '../../infra/payments/payment-provider.demo.js';
import { effectiveTier } from '../users/plans.js';
import type { PaymentsRepo } from './payments.repo.js';
import type { PaymentsService } from './payments.service.js';
import { addOneMonth, cancelsAtPeriodEnd } from './subscription-rules.js';

type CheckoutSession = Extract<DemoSession, { kind: 'checkout' }>;
type PortalSession = Extract<DemoSession, { kind: 'portal' }>;

export interface DemoCheckoutView {
  session: CheckoutSession;
  plan: PlanLimits;
  /** When the first period would end if confirmed now. */
  renewsOn: Date;
}

export interface DemoPortalView {
  session: PortalSession;
  tier: Tier;
  plan: PlanLimits;
  periodEnd: Date | null;
  /** Paid, cancelled by the user: the tier ends at `periodEnd`. */
  cancelsAtPeriodEnd: boolean;
}

/**
 * The demo provider's checkout and portal. Every change goes through {@link PaymentsService.apply} with
 * the same events Stripe's webhooks deliver, so the demo exercises the production code path. A
 * session's first event is named after it: applying it twice is impossible, which makes links single use.
 */
export interface DemoBillingService {
  /** The checkout page's content; null when the link is forged, expired or already used. */
  checkoutView(token: string): Promise<DemoCheckoutView | null>;
  /** Confirm: the user is upgraded; returns where to send the browser (null: link not usable). */
  confirmCheckout(token: string): Promise<string | null>;
  /** Cancel the checkout: nothing changes, the link is spent; returns where to send the browser. */
  abandonCheckout(token: string): Promise<string | null>;
  portalView(token: string): Promise<DemoPortalView | null>;
  /** Cancel at period end; returns the return URL (null: link not usable). */
  cancelSubscription(token: string): Promise<string | null>;
  /** Undo a cancellation before the period ends. */
  resumeSubscription(token: string): Promise<string | null>;
  /** Renews demo subscriptions whose period ended (no card, so every renewal "pays"); returns how many. */
  renewDue(): Promise<number>;
}

export interface DemoBillingDeps {
  provider: DemoPaymentProvider;
  payments: PaymentsService;
  repo: PaymentsRepo;
  plans: Record<Tier, PlanLimits>;
  now: () => Date;
}

const sessionEventId = (session: DemoSession) => `${DEMO_ID_PREFIX.event}${session.id}`;

function periodOf(user: UserRow): BillingPeriod | null {
  if (user.current_period_end === null) return null;
  return { start: new Date(user.current_period_start), end: new Date(user.current_period_end) };
}

export function createDemoBillingService(deps: DemoBillingDeps): DemoBillingService {
  const { provider, payments, repo, now } = deps;

  /** A session that is genuine, unexpired, unspent and still matches its user. */
  async function open<K extends DemoSession['kind']>(
    token: string,
    kind: K,
  ): Promise<{ session: Extract<DemoSession, { kind: K }>; user: UserRow } | null> {
    const session = provider.readSession(token);
    if (session?.kind !== kind) return null;
    if (await repo.eventSeen(sessionEventId(session))) return null;
    const user = await repo.findUser(session.userId);
    if (user === undefined) return null;
    if (kind === 'portal' && user.stripe_customer_id !== session.customerId) return null;
    return { session: session as Extract<DemoSession, { kind: K }>, user };
  }

  /** Spends a session without changing anything (an event the service records and ignores). */
  async function spend(session: DemoSession, providerType: string): Promise<void> {
    await payments.apply({ id: sessionEventId(session), providerType, created: now(), kind: 'ignored' });
  }

  /** Spends a portal session on the subscription update a real provider would send for its button. */
  async function updateSubscription(
    session: Extract<DemoSession, { kind: 'portal' }>,
    user: UserRow,
    change: { subscriptionId: string; cancelAtPeriodEnd: boolean },
  ): Promise<void> {
    await payments.apply({
      id: sessionEventId(session),
      providerType: 'customer.subscription.updated',
      kind: 'subscription.updated',
      created: now(),
      customerId: session.customerId,
      subscriptionId: change.subscriptionId,
      active: true,
      cancelAtPeriodEnd: change.cancelAtPeriodEnd,
      period: periodOf(user),
    });
  }

  return {
    async checkoutView(token) {
      const opened = await open(token, 'checkout');
      if (opened === null) return null;
      return { session: opened.session, plan: deps.plans.Personal, renewsOn: addOneMonth(now()) };
    },

    async confirmCheckout(token) {
      const opened = await open(token, 'checkout');
      if (opened === null) return null;
      const { session } = opened;
      const created = now();
      const subscriptionId = demoId('subscription');
      const outcome = await payments.apply({
        id: sessionEventId(session),
        providerType: 'checkout.session.completed',
        kind: 'checkout.completed',
        created,
        userId: session.userId,
        customerId: session.customerId,
        subscriptionId,
      });
      // A double submit loses the race here; the first one upgrades.
      if (outcome === 'duplicate') return session.successUrl;
      if (outcome === 'no-user') return null;
      await payments.apply({
        id: `${sessionEventId(session)}_invoice`,
        providerType: 'invoice.paid',
        kind: 'invoice.paid',
        created,
        customerId: session.customerId,
        subscriptionId,
        period: { start: created, end: addOneMonth(created) },
      });
      return session.successUrl;
    },

    async abandonCheckout(token) {
      const opened = await open(token, 'checkout');
      if (opened === null) return null;
      await spend(opened.session, 'checkout.session.expired');
      return opened.session.cancelUrl;
    },

    async portalView(token) {
      const opened = await open(token, 'portal');
      if (opened === null) return null;
      const { session, user } = opened;
      const at = now();
      const tier = effectiveTier(user, at);
      return {
        session,
        tier,
        plan: deps.plans[tier],
        periodEnd:
          tier === 'Free' || user.current_period_end === null ? null : new Date(user.current_period_end),
        cancelsAtPeriodEnd: cancelsAtPeriodEnd(user, at),
      };
    },

    async cancelSubscription(token) {
      const opened = await open(token, 'portal');
      if (opened === null) return null;
      const { session, user } = opened;
      const subscriptionId = user.stripe_subscription_id;
      if (effectiveTier(user, now()) === 'Free' || subscriptionId === null) {
        await spend(session, 'billing_portal.session.closed');
        return session.returnUrl;
      }
      await updateSubscription(session, user, { subscriptionId, cancelAtPeriodEnd: true });
      return session.returnUrl;
    },

    async resumeSubscription(token) {
      const opened = await open(token, 'portal');
      if (opened === null) return null;
      const { session, user } = opened;
      if (!cancelsAtPeriodEnd(user, now())) {
        await spend(session, 'billing_portal.session.closed');
        return session.returnUrl;
      }
      await updateSubscription(session, user, {
        subscriptionId: demoId('subscription'),
        cancelAtPeriodEnd: false,
      });
      return session.returnUrl;
    },

    async renewDue() {
      const at = now();
      let renewed = 0;
      for (const user of await repo.dueRenewals(DEMO_ID_PREFIX.subscription, at)) {
        const subscriptionId = user.stripe_subscription_id;
        const ended = user.current_period_end;
        if (subscriptionId?.startsWith(DEMO_ID_PREFIX.subscription) !== true || ended === null) continue;
        // The period that contains now, however many were missed while the server was off.
        let start = new Date(ended);
        let end = addOneMonth(start);
        while (end <= at) {
          start = end;
          end = addOneMonth(end);
        }
        // Named after the period it renews: servers sweeping at once apply it once.
        const outcome = await payments.apply({
          id: `${DEMO_ID_PREFIX.event}renew_${subscriptionId}_${ended}`,
          providerType: 'invoice.paid',
          kind: 'invoice.paid',
          created: at,
          customerId: user.stripe_customer_id,
          subscriptionId,
          period: { start, end },
        });
        if (outcome === 'applied') renewed += 1;
      }
      return renewed;
    },
  };
}
