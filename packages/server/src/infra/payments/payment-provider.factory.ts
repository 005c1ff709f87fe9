import type { Config } from '../../config.js';
import { createDemoSessionTokens, loadOrCreateDemoSecret } from './demo-sessions.js';
import type { PaymentProvider } from './payment-provider.js';
import { createDemoPaymentProvider } from './payment-provider.demo.js';
import { createStripePaymentProvider } from './payment-provider.stripe.js';

/**
 * The payment provider the configuration asks for: Stripe when `STRIPE_SECRET_KEY` is set, otherwise
 * the built-in demo (its signing secret kept in the data folder). Called once, by the composition root.
 */
export function createPaymentProvider(
  config: Pick<Config, 'payments' | 'publicUrl' | 'dataDir'>,
  options: { now?: () => Date } = {},
): PaymentProvider {
  if (config.payments.stripe !== null) return createStripePaymentProvider(config.payments.stripe);
  return createDemoPaymentProvider({
    publicUrl: config.publicUrl,
    tokens: createDemoSessionTokens(loadOrCreateDemoSecret(config.dataDir), options.now),
  });
}
