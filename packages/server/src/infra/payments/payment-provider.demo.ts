import { randomBytes } from 'node:crypto';
import type { DemoSession, DemoSessionTokens } from './demo-sessions.js';
import type { PaymentProvider } from './payment-provider.js';
import { WebhookSignatureError } from './payment-provider.js';

/** Where the demo's pages live (outside `/api`: a browser navigates there). */
export const DEMO_BILLING_PATH = '/billing/demo';

/** Ids the demo makes up look like Stripe's, with a prefix that says where they came from. */
export const DEMO_ID_PREFIX = {
  customer: 'demo_cus_',
  subscription: 'demo_sub_',
  event: 'demo_evt_',
} as const;

export function demoId(kind: keyof typeof DEMO_ID_PREFIX): string {
  return `${DEMO_ID_PREFIX[kind]}${randomBytes(12).toString('base64url')}`;
}

/** The built-in provider: its checkout and portal are the app's own pages, and nothing is charged. */
export interface DemoPaymentProvider extends PaymentProvider {
  readonly name: 'demo';
  /** The session behind a demo page's token, or null when it is forged or expired. */
  readSession(token: string): DemoSession | null;
}

export function isDemoProvider(provider: PaymentProvider): provider is DemoPaymentProvider {
  return provider.name === 'demo';
}

export function createDemoPaymentProvider(options: {
  publicUrl: string;
  tokens: DemoSessionTokens;
}): DemoPaymentProvider {
  const base = `${options.publicUrl.replace(/\/$/, '')}${DEMO_BILLING_PATH}`;
  return {
    name: 'demo',

    createCustomer() {
      return Promise.resolve(demoId('customer'));
    },

    createCheckoutSession({ userId, customerId, priceId, successUrl, cancelUrl }) {
      const token = options.tokens.issue({
        kind: 'checkout',
        userId,
        customerId,
        priceId,
        successUrl,
        cancelUrl,
      });
      return Promise.resolve(`${base}/checkout?session=${token}`);
    },

    createPortalSession({ userId, customerId, returnUrl }) {
      const token = options.tokens.issue({ kind: 'portal', userId, customerId, returnUrl });
      return Promise.resolve(`${base}/portal?session=${token}`);
    },

    verifyWebhook() {
      // The demo applies its events in-process; nothing outside may post billing events.
      throw new WebhookSignatureError('The demo payment provider accepts no webhooks');
    },

    readSession(token) {
      return options.tokens.read(token);
    },
  };
}
