import { track } from '../../lib/analytics';
import type { ApiClient } from '../../lib/api/http';
import { paymentsApi } from '../../lib/api/endpoints';

declare global {
  // Build-time setting of the upgrade checkout; merged into the app's typed `import.meta.env`.
  interface ImportMetaEnv {
    readonly VITE_STRIPE_PRICE_ID?: string;
  }
}

/** The subscription price the Upgrade button buys (spec section 7: a fixed price identifier). */
export const UPGRADE_PRICE_ID = priceIdOrDefault(import.meta.env.VITE_STRIPE_PRICE_ID);

/** An unset or blank setting falls back to the default price. */
export function priceIdOrDefault(value: string | undefined): string {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? 'price_personal_monthly' : trimmed;
}

/** Ours: the spec names no texts for failed payment calls. */
export const paymentMessages = {
  upgrade: 'Upgrade',
  manage: 'Manage subscription',
  portalFailed: 'Could not open the billing portal. Please try again.',
  checkoutFailed: 'Could not start the upgrade. Please try again.',
} as const;

/** The page the payment provider returns to (spec: the portal returns to the profile page). */
export function profileUrl(origin: string): string {
  return `${origin.replace(/\/$/, '')}/profile`;
}

/** POST /payments/portal; resolves to the portal's URL. */
export async function billingPortalUrl(api: ApiClient, origin: string): Promise<string> {
  return (await paymentsApi.portal(api, { returnUrl: profileUrl(origin) })).url;
}

/**
 * The price the server sells (GET /api/config `payments.priceId`; the server accepts no other), or the
 * build-time default when the server does not say.
 */
export async function configuredPriceId(api: ApiClient): Promise<string> {
  try {
    const config = await api.request<{ payments?: { priceId?: unknown } }>('GET', '/config');
    const priceId = config.payments?.priceId;
    return typeof priceId === 'string' && priceId !== '' ? priceId : UPGRADE_PRICE_ID;
  } catch {
    return UPGRADE_PRICE_ID;
  }
}

/** POST /payments/checkout for the upgrade price; resolves to the checkout page's URL. */
export async function upgradeCheckoutUrl(api: ApiClient, origin: string, priceId?: string): Promise<string> {
  const back = profileUrl(origin);
  const price = priceId ?? (await configuredPriceId(api));
  track('upgrade_started');
  return (await paymentsApi.checkout(api, { priceId: price, successUrl: back, cancelUrl: back })).url;
}
