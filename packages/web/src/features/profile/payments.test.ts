import { describe, expect, it } from 'vitest';
import { createFakeApi } from '../../test/render-screen';
import {
  billingPortalUrl,
  configuredPriceId,
  priceIdOrDefault,
  profileUrl,
  upgradeCheckoutUrl,
} from './payments';

describe('payments', () => {
  it('returns to the profile page', () => {
    expect(profileUrl('https://coffer.example')).toBe('https://coffer.example/profile');
    expect(profileUrl('https://coffer.example/')).toBe('https://coffer.example/profile');
  });

  it('reads the price from configuration, with a default', () => {
    expect(priceIdOrDefault(undefined)).toBe('price_personal_monthly');
    expect(priceIdOrDefault('  ')).toBe('price_personal_monthly');
    expect(priceIdOrDefault('price_123')).toBe('price_123');
  });

  it('opens the portal and the checkout with the spec bodies', async () => {
    const api = createFakeApi({
      'POST /payments/portal': () => ({ url: 'https://billing.example/portal' }),
      'POST /payments/checkout': () => ({ url: 'https://billing.example/checkout' }),
    });
    expect(await billingPortalUrl(api, 'https://coffer.example')).toBe('https://billing.example/portal');
    expect(await upgradeCheckoutUrl(api, 'https://coffer.example', 'price_9')).toBe(
      'https://billing.example/checkout',
    );
    expect(api.calls.map((call) => call.body)).toEqual([
      { returnUrl: 'https://coffer.example/profile' },
      {
        priceId: 'price_9',
        successUrl: 'https://coffer.example/profile',
        cancelUrl: 'https://coffer.example/profile',
      },
    ]);
  });

  it('buys the price the server publishes, falling back to the default', async () => {
    const api = createFakeApi({
      'GET /config': () => ({ payments: { provider: 'stripe', priceId: 'price_live_1' } }),
      'POST /payments/checkout': () => ({ url: 'https://billing.example/checkout' }),
    });
    expect(await configuredPriceId(api)).toBe('price_live_1');
    await upgradeCheckoutUrl(api, 'https://coffer.example');
    expect(api.callsTo('POST /payments/checkout')[0]?.body).toMatchObject({ priceId: 'price_live_1' });
    expect(await configuredPriceId(createFakeApi())).toBe('price_personal_monthly');
  });
});
