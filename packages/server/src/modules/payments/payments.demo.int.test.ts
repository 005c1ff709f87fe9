import type { StatsResponse } from '@coffer/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectsUnderTest } from '../../test/db.js';
import type { TestDatabase } from '../../test/db.js';
import { startPaymentsTestApp, TEST_PUBLIC_URL, testClock } from './payments.test-harness.js';
import type { PaymentsTestApp } from './payments.test-harness.js';

const profile = `${TEST_PUBLIC_URL}/profile`;
const DAY = 24 * 60 * 60 * 1000;

/** The path and query of an absolute demo URL, for `inject`. */
function local(url: string): string {
  const parsed = new URL(url);
  expect(parsed.origin).toBe(TEST_PUBLIC_URL);
  return `${parsed.pathname}${parsed.search}`;
}

function sessionOf(url: string): string {
  return new URL(url).searchParams.get('session') ?? '';
}

describe.each(dialectsUnderTest)('payments with the demo provider ($name)', ({ open }) => {
  let database: TestDatabase;
  let t: PaymentsTestApp;
  const clock = testClock(new Date('2030-01-31T10:00:00.000Z'));

  beforeAll(async () => {
    database = await open();
    t = await startPaymentsTestApp({
      database,
      clock,
      env: { PLAN_LIMITS_FREE: '{"maxContacts": 1}', PLAN_LIMITS_PERSONAL: '{"maxContacts": 5}' },
    });
  });
  afterAll(async () => {
    await t.close();
    await database.destroy();
  });

  const stats = async (user: string) =>
    (await t.as(user, { method: 'GET', url: '/api/users/stats' })).json<StatsResponse>();
  const addContact = (user: string, email: string) =>
    t.as(user, { method: 'POST', url: '/api/users/contacts', payload: { email, name: email.split('@')[0] } });
  const startCheckout = async (user: string): Promise<string> => {
    const res = await t.as(user, {
      method: 'POST',
      url: '/api/payments/checkout',
      payload: { priceId: 'price_personal_monthly', successUrl: `${profile}?upgraded=1`, cancelUrl: profile },
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ url: string }>().url;
  };
  const openPortal = async (user: string): Promise<string> => {
    const res = await t.as(user, {
      method: 'POST',
      url: '/api/payments/portal',
      payload: { returnUrl: profile },
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ url: string }>().url;
  };
  /** What a browser does: GET the page without any token, then submit its form. */
  const page = (url: string) => t.app.inject({ method: 'GET', url: local(url) });
  const submit = (
    url: string,
    action: string,
    session = sessionOf(url),
    on: PaymentsTestApp = t,
  ): Promise<LightMyRequestResponse> =>
    on.app.inject({
      method: 'POST',
      url: new URL(url).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ session, action }).toString(),
    });

  async function upgrade(user: string): Promise<void> {
    const url = await startCheckout(user);
    const confirmed = await submit(url, 'confirm');
    expect(confirmed.statusCode).toBe(303);
  }

  it('upgrades through the demo checkout: the limits change at once', async () => {
    expect((await addContact('ada', 'one@example.test')).statusCode).toBe(201);
    const refused = await addContact('ada', 'two@example.test');
    expect(refused.statusCode).toBe(403);

    const url = await startCheckout('ada');
    expect(url).toMatch(/^http:\/\/coffer\.test\/billing\/demo\/checkout\?session=/);

    const checkoutPage = await page(url);
    expect(checkoutPage.statusCode).toBe(200);
    expect(checkoutPage.headers['content-type']).toContain('text/html');
    expect(checkoutPage.body).toContain('This is a demo checkout — no card is charged');
    expect(checkoutPage.body).toContain('Personal Tier');
    expect(checkoutPage.body).not.toContain('<script');
    const csp = String(checkoutPage.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).not.toContain('script-src');
    expect(checkoutPage.headers['cache-control']).toBe('no-store');

    const confirmed = await submit(url, 'confirm');
    expect(confirmed.statusCode).toBe(303);
    expect(confirmed.headers.location).toBe(`${profile}?upgraded=1`);

    const paid = await stats('ada');
    expect(paid.subscription.tier).toBe('Personal');
    expect(paid.subscription.limits.maxContacts).toBe(5);
    // 31 January + one month is the last day of February.
    expect(paid.subscription.limits.currentPeriodEnd).toBe('2030-02-28T10:00:00.000Z');
    expect((await addContact('ada', 'two@example.test')).statusCode).toBe(201);
  });

  it('uses each link once, for its own user only, and refuses forged or expired ones', async () => {
    const url = await startCheckout('ben');
    expect((await submit(url, 'confirm')).statusCode).toBe(303);
    // Spent: the page and a second submit both say so, and nothing else happens.
    expect((await page(url)).statusCode).toBe(410);
    expect((await submit(url, 'confirm')).statusCode).toBe(410);
    expect((await stats('ben')).subscription.tier).toBe('Personal');

    // A link upgrades the user who asked for it, whoever opens it (no bearer token reaches the page).
    const cleo = await startCheckout('cleo');
    expect((await submit(cleo, 'confirm')).statusCode).toBe(303);
    expect((await stats('cleo')).subscription.tier).toBe('Personal');
    expect((await stats('dan')).subscription.tier).toBe('Free');

    const dan = await startCheckout('dan');
    const token = sessionOf(dan);
    const [body = '', mac = ''] = token.split('.');
    const forgedBody = Buffer.from(
      Buffer.from(body, 'base64url')
        .toString('utf8')
        .replace(/"u":"[^"]+"/, '"u":"someone-else"'),
    ).toString('base64url');
    for (const bad of [`${forgedBody}.${mac}`, `${body}.${'A'.repeat(43)}`, 'garbage', '']) {
      expect((await submit(dan, 'confirm', bad)).statusCode).toBe(410);
      const shown = await t.app.inject({
        method: 'GET',
        url: `/billing/demo/checkout?session=${encodeURIComponent(bad)}`,
      });
      expect(shown.statusCode).toBe(410);
    }
    expect((await stats('dan')).subscription.tier).toBe('Free');

    // Expired after 30 minutes.
    const saved = clock.now();
    clock.advance(31 * 60 * 1000);
    try {
      expect((await page(dan)).statusCode).toBe(410);
      expect((await submit(dan, 'confirm')).statusCode).toBe(410);
    } finally {
      clock.set(saved);
    }
    expect((await stats('dan')).subscription.tier).toBe('Free');
  });

  it('confirms on another instance a link this one signed: the demo secret is in the database', async () => {
    // A second instance on the same database, with its own data folder, behind the same proxy.
    const other = await startPaymentsTestApp({ database, clock });
    try {
      const url = await startCheckout('kit');
      expect((await other.app.inject({ method: 'GET', url: local(url) })).statusCode).toBe(200);
      expect((await submit(url, 'confirm', sessionOf(url), other)).statusCode).toBe(303);
      expect((await stats('kit')).subscription.tier).toBe('Personal');
    } finally {
      await other.close();
    }
  });

  it('cancelling the checkout changes nothing and spends the link', async () => {
    const url = await startCheckout('eve');
    const cancelled = await submit(url, 'cancel');
    expect(cancelled.statusCode).toBe(303);
    expect(cancelled.headers.location).toBe(profile);
    expect((await submit(url, 'confirm')).statusCode).toBe(410);
    expect((await stats('eve')).subscription.tier).toBe('Free');
  });

  it('cancels at period end in the portal: Personal until then, Free after; resume undoes it', async () => {
    await upgrade('fay');
    const periodEnd = (await stats('fay')).subscription.limits.currentPeriodEnd;
    expect(periodEnd).not.toBeNull();

    const portal = await openPortal('fay');
    expect(portal).toMatch(/^http:\/\/coffer\.test\/billing\/demo\/portal\?session=/);
    const shown = await page(portal);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('This is a demo billing portal — no card is charged');
    expect(shown.body).toContain('Personal Tier');
    expect(shown.body).toContain('Next billing date');
    expect(shown.body).toContain('Cancel subscription');

    const cancelled = await submit(portal, 'cancel');
    expect(cancelled.statusCode).toBe(303);
    expect(cancelled.headers.location).toBe(profile);
    expect((await stats('fay')).subscription).toMatchObject({
      tier: 'Personal',
      limits: { currentPeriodEnd: periodEnd },
    });

    const again = await page(await openPortal('fay'));
    expect(again.body).toContain('cancels at period end');
    expect(again.body).toContain('Resume subscription');

    // Renewal sweeps skip a cancelled subscription; the period ends and the tier with it.
    const saved = clock.now();
    clock.set(new Date(new Date(periodEnd ?? '').getTime() + 1000));
    try {
      await t.payments.demo?.renewDue();
      expect((await stats('fay')).subscription).toMatchObject({
        tier: 'Free',
        limits: { maxContacts: 1, currentPeriodEnd: null },
      });
    } finally {
      clock.set(saved);
    }

    // Before the end, resuming makes it renew again.
    await upgrade('gil');
    const gilPortal = await openPortal('gil');
    expect((await submit(gilPortal, 'cancel')).statusCode).toBe(303);
    expect((await submit(await openPortal('gil'), 'resume')).statusCode).toBe(303);
    const resumed = await page(await openPortal('gil'));
    expect(resumed.body).toContain('Cancel subscription');
    expect(resumed.body).not.toContain('cancels at period end');
  });

  it('renews a demo subscription whose period ended', async () => {
    await upgrade('hal');
    const firstEnd = (await stats('hal')).subscription.limits.currentPeriodEnd ?? '';
    const saved = clock.now();
    clock.set(new Date(new Date(firstEnd).getTime() + 40 * DAY));
    try {
      expect((await stats('hal')).subscription.tier).toBe('Free');
      expect(await t.payments.demo?.renewDue()).toBeGreaterThanOrEqual(1);
      const renewed = await stats('hal');
      expect(renewed.subscription.tier).toBe('Personal');
      expect(new Date(renewed.subscription.limits.currentPeriodEnd ?? '').getTime()).toBeGreaterThan(
        clock.now().getTime(),
      );
      // A second sweep finds nothing more to do for hal.
      const before = renewed.subscription.limits.currentPeriodEnd;
      await t.payments.demo?.renewDue();
      expect((await stats('hal')).subscription.limits.currentPeriodEnd).toBe(before);
    } finally {
      clock.set(saved);
    }
  });

  it('needs a signed-in user for checkout and portal, and a customer for the portal', async () => {
    for (const url of ['/api/payments/checkout', '/api/payments/portal']) {
      expect((await t.as(null, { method: 'POST', url, payload: {} })).statusCode).toBe(401);
    }
    const noCustomer = await t.as('ivy', {
      method: 'POST',
      url: '/api/payments/portal',
      payload: { returnUrl: profile },
    });
    expect(noCustomer.json()).toMatchObject({ code: 'INVALID_OPERATION' });
    const away = await t.as('ivy', {
      method: 'POST',
      url: '/api/payments/checkout',
      payload: { priceId: 'price_personal_monthly', successUrl: 'https://evil.example/', cancelUrl: profile },
    });
    expect(away.statusCode).toBe(400);
  });

  it('takes no webhooks: nothing outside may post billing events', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=abc' },
      payload: JSON.stringify({ id: 'evt_1', type: 'invoice.paid' }),
    });
    expect(res.statusCode).toBe(400);
  });

  it('publishes the demo provider and its price for the web app', async () => {
    const config = await t.app.inject({ method: 'GET', url: '/api/config' });
    expect(config.json()).toMatchObject({
      payments: { provider: 'demo', priceId: 'price_personal_monthly' },
    });
  });
});
