import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { DB } from '../db/schema.js';
import { loadOrCreateServerSecret } from '../db/server-secrets.js';
import { createDemoSessionTokens, DEMO_SECRET_NAME } from './demo-sessions.js';
import type { PaymentProvider } from './payment-provider.js';
import { createDemoPaymentProvider } from './payment-provider.demo.js';
import { createStripePaymentProvider } from './payment-provider.stripe.js';

/**
 * The payment provider the configuration asks for: Stripe when `STRIPE_SECRET_KEY` is set, otherwise
 * the built-in demo (its signing secret kept in the database, so a link one instance signs works on
 * every other). Called once, by the composition root.
 */
export async function createPaymentProvider(
  config: Pick<Config, 'payments' | 'publicUrl'>,
  db: Kysely<DB>,
  options: { now?: () => Date } = {},
): Promise<PaymentProvider> {
  if (config.payments.stripe !== null) return createStripePaymentProvider(config.payments.stripe);
  const secret = await loadOrCreateServerSecret(db, DEMO_SECRET_NAME, options.now?.());
  return createDemoPaymentProvider({
    publicUrl: config.publicUrl,
    tokens: createDemoSessionTokens(secret, options.now),
  });
}
