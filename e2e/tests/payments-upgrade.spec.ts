import { formatCount, type StatsResponse } from '@coffer/contracts';
import { expect, test, type Page } from '@playwright/test';
import { readyPerson } from '../helpers/accounts.js';
import { newPerson, unlockEncryption, type TestPerson } from '../helpers/auth.js';

/**
 * Subscriptions (spec sections 3, 7 and 9) against the real server with its default, built-in demo
 * payment provider: a free user at the contact limit upgrades, gets the Personal limits at once, and
 * cancels in the portal. (That the tier then ends with the period is proven by the server's integration
 * tests with a movable clock: a browser test cannot wait a month.)
 */

/** A JSON call of the API with the access token the page holds. */
async function api(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const key = Object.keys(localStorage).find((k) => k.startsWith('oidc.user:')) ?? '';
      const user = JSON.parse(localStorage.getItem(key) ?? '{}') as { access_token?: string };
      const headers: Record<string, string> = { Authorization: `Bearer ${user.access_token ?? ''}` };
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const response = await fetch(url, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: text === '' ? null : (JSON.parse(text) as unknown) };
    },
    { method, url: `/api${path}`, body },
  );
}

async function stats(page: Page): Promise<StatsResponse> {
  const { status, body } = await api(page, 'GET', '/users/stats');
  expect(status).toBe(200);
  return body as StatsResponse;
}

function snackbar(page: Page, text: string) {
  return page.locator('.mantine-Notification-root').filter({ hasText: text }).first();
}

async function addContactInUi(page: Page, name: string, email: string): Promise<void> {
  await page.getByRole('button', { name: 'Add contact', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add contact' });
  await dialog.getByLabel(/^Name/).fill(name);
  await dialog.getByLabel(/^Email/).fill(email);
  await dialog.getByRole('button', { name: 'Add contact' }).click();
  await expect(snackbar(page, 'Contact added successfully!')).toBeVisible();
  // The modal closes with an animation; until it is gone its own "Add contact" button is still there.
  await expect(dialog).toBeHidden();
}

/** Back from the payment pages: a full page load, which may ask for the master key again. */
async function backOnProfile(page: Page, person: TestPerson): Promise<void> {
  await expect(page).toHaveURL(/\/(profile|unlock)(\?.*)?$/);
  if (new URL(page.url()).pathname === '/unlock') {
    await unlockEncryption(page, person.masterKey);
    await page.goto('/profile');
  }
  await expect(page.getByRole('region', { name: 'Limits' })).toBeVisible();
}

test('a free user at the contact limit upgrades through the demo checkout, then cancels in the portal', async ({
  page,
}) => {
  const person = newPerson('upgrade');
  await readyPerson(page, person);

  // Reach the free tier's contact limit: all but one through the API, the last one on the screen.
  const free = await stats(page);
  expect(free.subscription.tier).toBe('Free');
  const freeLimit = free.subscription.limits.maxContacts;
  expect(freeLimit).toBeGreaterThan(0);
  const unique = person.email.split('@')[0] ?? 'upgrade';
  for (let i = 1; i < freeLimit; i += 1) {
    const added = await api(page, 'POST', '/users/contacts', {
      email: `c${i}.${unique}@example.com`,
      name: `Contact ${i}`,
    });
    expect(added.status).toBe(201);
  }
  await page.goto('/contacts');
  await addContactInUi(page, 'Last Free Contact', `last.${unique}@example.com`);
  await expect(page.getByText('You have reached your contact limit.').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add contact', exact: true })).toBeDisabled();

  // Upgrade on the profile page through the demo checkout.
  await page.goto('/profile');
  const limits = page.getByRole('region', { name: 'Limits' });
  await expect(limits.getByText('Free Tier')).toBeVisible();
  await expect(limits.getByText(`${freeLimit} / ${freeLimit}`)).toBeVisible();
  await limits.getByRole('button', { name: 'Upgrade' }).click();

  await expect(page).toHaveURL(/\/billing\/demo\/checkout\?session=/);
  await expect(page.getByText('This is a demo checkout — no card is charged')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Upgrade to Personal' })).toBeVisible();
  // The checkout prints the plan's figures the way the Limits card will ('5,000', not '5000').
  const checkoutShares = await page.locator('dt:text-is("Shares") + dd').textContent();
  await page.getByRole('button', { name: 'Confirm upgrade' }).click();

  await backOnProfile(page, person);
  const paid = await stats(page);
  expect(paid.subscription.tier).toBe('Personal');
  const paidLimit = paid.subscription.limits.maxContacts;
  expect(paidLimit).toBeGreaterThan(freeLimit);
  const periodEnd = paid.subscription.limits.currentPeriodEnd;
  expect(periodEnd).not.toBeNull();

  const paidCard = page.getByRole('region', { name: 'Limits' });
  await expect(paidCard.getByText('Personal Tier')).toBeVisible();
  await expect(paidCard.getByText(`${freeLimit} / ${formatCount(paidLimit)}`)).toBeVisible();
  const paidShares = paid.subscription.limits.maxShares;
  expect(checkoutShares).toBe(formatCount(paidShares));
  await expect(
    paidCard.getByText(`${formatCount(paid.sharing.count)} / ${formatCount(paidShares)}`),
  ).toBeVisible();
  await expect(
    paidCard.getByText(`of ${paid.subscription.limits.storageLimit} GB`, { exact: false }),
  ).toBeVisible();
  await expect(paidCard.getByText('Next billing date')).toBeVisible();
  await expect(paidCard.getByText(/^\d{2}\/\d{2}\/\d{4}$/)).toBeVisible();
  await expect(paidCard.getByRole('button', { name: 'Manage subscription' })).toBeVisible();

  // More contacts now fit.
  await page.goto('/contacts');
  await expect(page.getByText('You have reached your contact limit.')).toHaveCount(0);
  await addContactInUi(page, 'First Paid Contact', `paid.${unique}@example.com`);
  expect((await stats(page)).contacts.count).toBe(freeLimit + 1);

  // The portal cancels at period end: the tier stays until then.
  await page.goto('/profile');
  await page
    .getByRole('region', { name: 'Limits' })
    .getByRole('button', { name: 'Manage subscription' })
    .click();
  await expect(page).toHaveURL(/\/billing\/demo\/portal\?session=/);
  await expect(page.getByText('This is a demo billing portal — no card is charged')).toBeVisible();
  await expect(page.getByText('Personal Tier')).toBeVisible();
  await expect(page.getByText('Next billing date')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel subscription' }).click();

  await backOnProfile(page, person);
  await expect(page.getByRole('region', { name: 'Limits' }).getByText('Personal Tier')).toBeVisible();
  const cancelled = await stats(page);
  expect(cancelled.subscription).toMatchObject({ tier: 'Personal', limits: { currentPeriodEnd: periodEnd } });

  await page
    .getByRole('region', { name: 'Limits' })
    .getByRole('button', { name: 'Manage subscription' })
    .click();
  await expect(page).toHaveURL(/\/billing\/demo\/portal\?session=/);
  await expect(page.getByText(/cancels at period end/)).toBeVisible();
  await expect(page.getByText(/then your account returns to the Free Tier/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Resume subscription' })).toBeVisible();
  await page.getByRole('link', { name: 'Return to Coffer' }).click();
  await backOnProfile(page, person);
});

test('the demo pages refuse a link that is not theirs, and the API refuses open redirects', async ({
  page,
}) => {
  const person = newPerson('billing-links');
  await readyPerson(page, person);

  await page.goto('/billing/demo/checkout?session=forged.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
  await expect(page.getByRole('heading', { name: 'This link has expired' })).toBeVisible();

  const away = await api(page, 'POST', '/payments/checkout', {
    priceId: 'price_personal_monthly',
    successUrl: 'https://evil.example/',
    cancelUrl: 'https://evil.example/',
  });
  expect(away.status).toBe(400);
  const portal = await api(page, 'POST', '/payments/portal', { returnUrl: 'https://evil.example/' });
  expect(portal.status).toBe(400);
});
