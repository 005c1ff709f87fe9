import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { FastifyTypeBox } from '../../http/fastify-typebox.js';
import type { DB } from '../../infra/db/schema.js';
import type { PaymentProvider } from '../../infra/payments/payment-provider.js';
import { isDemoProvider } from '../../infra/payments/payment-provider.demo.js';
import { demoBillingRoutes } from './demo-billing.routes.js';
import type { DemoBillingService } from './demo-billing.service.js';
import { createDemoBillingService } from './demo-billing.service.js';
import { createPaymentsRepo } from './payments.repo.js';
import { paymentsRoutes, paymentsWebhookRoutes } from './payments.routes.js';
import type { PaymentsService } from './payments.service.js';
import { createPaymentsService } from './payments.service.js';

/** How often the demo renews subscriptions whose period ended. */
const DEMO_RENEWAL_INTERVAL_MS = 10 * 60 * 1000;

/** The payments module as the composition root holds it. */
export interface Payments {
  service: PaymentsService;
  /** The demo's checkout and portal; null with a real provider. */
  demo: DemoBillingService | null;
  publicUrl: string;
  logger: FastifyBaseLogger;
}

export interface PaymentsDeps {
  db: Kysely<DB>;
  provider: PaymentProvider;
  config: Pick<Config, 'publicUrl' | 'payments' | 'plans'>;
  logger: FastifyBaseLogger;
  now: () => Date;
}

export function createPayments(deps: PaymentsDeps): Payments {
  const repo = createPaymentsRepo(deps.db);
  const service = createPaymentsService({
    repo,
    provider: deps.provider,
    publicUrl: deps.config.publicUrl,
    priceId: deps.config.payments.priceId,
    logger: deps.logger,
    now: deps.now,
  });
  const demo = isDemoProvider(deps.provider)
    ? createDemoBillingService({
        provider: deps.provider,
        payments: service,
        repo,
        plans: deps.config.plans,
        now: deps.now,
      })
    : null;
  return { service, demo, publicUrl: deps.config.publicUrl, logger: deps.logger };
}

/** POST /payments/checkout and /payments/portal: register inside the authenticated `/api` scope. */
export function registerPayments(scope: FastifyTypeBox, deps: { payments: Payments }): void {
  paymentsRoutes(scope, { payments: deps.payments.service });
}

/**
 * What needs no bearer token: POST /api/payments/webhook and, with the demo provider, its pages under
 * /billing/demo and the renewal of demo subscriptions. Register on the root instance (full paths).
 */
export async function registerPaymentsPublic(
  app: FastifyInstance,
  deps: { payments: Payments },
): Promise<void> {
  const { service, demo, publicUrl, logger } = deps.payments;
  await paymentsWebhookRoutes(app, { payments: service });
  if (demo === null) return;
  await demoBillingRoutes(app, { demo, publicUrl });

  let timer: NodeJS.Timeout | undefined;
  const renew = async () => {
    try {
      await demo.renewDue();
    } catch (err) {
      logger.error({ err }, 'demo subscription renewal failed');
    }
  };
  app.addHook('onReady', async () => {
    // Once before serving (so a restart after a long pause renews first), then every few minutes.
    await renew();
    timer = setInterval(() => void renew(), DEMO_RENEWAL_INTERVAL_MS);
    timer.unref();
  });
  app.addHook('onClose', () => {
    clearInterval(timer);
    return Promise.resolve();
  });
}
