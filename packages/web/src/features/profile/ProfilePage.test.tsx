import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BYTES_PER_GB } from '@coffer/contracts';
import { notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it } from 'vitest';
import { apiError, createFakeApi, renderScreen, stats, testUser } from '../../test/render-screen';
import { ProfilePage } from './ProfilePage';

afterEach(() => {
  act(() => {
    notifications.clean();
  });
});

const limitsCard = () => screen.getByRole('region', { name: 'Limits' });

describe('Profile page', () => {
  it('shows the user and the personal details from the identity claims', async () => {
    const api = createFakeApi({ 'GET /users/stats': () => stats({}) });
    renderScreen(<ProfilePage />, { api });
    expect(screen.getByRole('heading', { level: 1, name: 'Grace Hopper' })).toBeTruthy();
    const details = screen.getByRole('region', { name: 'Personal Details' });
    expect(within(details).getByText('Grace Hopper')).toBeTruthy();
    expect(within(details).getByText('grace@example.com')).toBeTruthy();
    expect(within(details).getByText('United Kingdom')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Provide Feedback' })).toBeTruthy();
    await waitFor(() => {
      expect(within(limitsCard()).getByText('0 / 10')).toBeTruthy();
    });
  });

  it('says "Not provided" for a missing country', () => {
    const api = createFakeApi({ 'GET /users/stats': () => stats({}) });
    renderScreen(<ProfilePage />, {
      api,
      user: { ...testUser, idTokenClaims: { ...testUser.idTokenClaims, country: null } },
    });
    const details = screen.getByRole('region', { name: 'Personal Details' });
    expect(within(details).getByText('Not provided')).toBeTruthy();
  });

  it('shows the free tier while stats load, and the paid tier once they say so', async () => {
    let answer: (value: unknown) => void = () => undefined;
    const api = createFakeApi({
      'GET /users/stats': () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    });
    renderScreen(<ProfilePage />, { api });
    expect(within(limitsCard()).getByText('Free Tier')).toBeTruthy();
    await waitFor(() => {
      expect(api.callsTo('GET /users/stats')).toHaveLength(1);
    });
    act(() => {
      answer(stats({ tier: 'Personal' }));
    });
    expect(await within(limitsCard()).findByText('Personal Tier')).toBeTruthy();
    expect(within(limitsCard()).queryByText('Free Tier')).toBeNull();
  });

  it('shows storage, contacts and shares against their limits, without the monthly limits', async () => {
    const api = createFakeApi({
      'GET /users/stats': () =>
        stats({
          used: 1.25 * BYTES_PER_GB,
          storageLimit: 5,
          contacts: 3,
          maxContacts: 10,
          shares: 4,
          maxShares: 20,
        }),
    });
    renderScreen(<ProfilePage />, { api });
    const card = limitsCard();
    expect(await within(card).findByText('1.25 GB of 5 GB')).toBeTruthy();
    expect(within(card).getByText('25% used')).toBeTruthy();
    expect(within(card).getByRole('progressbar', { name: 'Storage' }).getAttribute('aria-valuenow')).toBe(
      '25',
    );
    expect(within(card).getByText('3 / 10')).toBeTruthy();
    expect(within(card).getByText('4 / 20')).toBeTruthy();
    expect(within(card).queryByText(/100|500/)).toBeNull();
    expect(within(card).queryByText(/upload|download/i)).toBeNull();
  });

  it('shows 99% for a use between 99% and 100%', async () => {
    const api = createFakeApi({
      'GET /users/stats': () => stats({ used: Math.round(0.9975 * 4 * BYTES_PER_GB), storageLimit: 4 }),
    });
    renderScreen(<ProfilePage />, { api });
    expect(await within(limitsCard()).findByText('99% used')).toBeTruthy();
  });

  it('shows the next billing date on the paid tier only', async () => {
    const end = new Date(2030, 0, 31, 12, 0, 0).toISOString();
    const paid = createFakeApi({
      'GET /users/stats': () => stats({ tier: 'Personal', currentPeriodEnd: end }),
    });
    const { unmount } = renderScreen(<ProfilePage />, { api: paid });
    expect(await within(limitsCard()).findByText('31/01/2030')).toBeTruthy();
    expect(within(limitsCard()).getByText('Next billing date')).toBeTruthy();
    unmount();

    const free = createFakeApi({ 'GET /users/stats': () => stats({ tier: 'Free', currentPeriodEnd: end }) });
    renderScreen(<ProfilePage />, { api: free });
    await within(limitsCard()).findByText('0 / 10');
    expect(within(limitsCard()).queryByText('Next billing date')).toBeNull();
  });

  it('starts the upgrade checkout on the free tier and goes to its page', async () => {
    const visited: string[] = [];
    const api = createFakeApi({
      'GET /users/stats': () => stats({ tier: 'Free' }),
      'POST /payments/checkout': () => ({ url: 'https://billing.example/checkout/1' }),
    });
    renderScreen(<ProfilePage redirect={(url) => visited.push(url)} />, { api });
    expect(within(limitsCard()).queryByRole('button', { name: 'Manage subscription' })).toBeNull();
    const upgrade = within(limitsCard()).getByRole('button', { name: 'Upgrade' });
    await waitFor(() => {
      expect((upgrade as HTMLButtonElement).disabled).toBe(false);
    });
    await userEvent.click(upgrade);
    await waitFor(() => {
      expect(visited).toEqual(['https://billing.example/checkout/1']);
    });
    const body = api.callsTo('POST /payments/checkout')[0]?.body as Record<string, string>;
    expect(body.priceId).toBe('price_personal_monthly');
    expect(body.successUrl).toBe(`${window.location.origin}/profile`);
    expect(body.cancelUrl).toBe(`${window.location.origin}/profile`);
  });

  it('opens the billing portal on the paid tier, returning to the profile page', async () => {
    const visited: string[] = [];
    const api = createFakeApi({
      'GET /users/stats': () => stats({ tier: 'Personal' }),
      'POST /payments/portal': () => ({ url: 'https://billing.example/portal/1' }),
    });
    renderScreen(<ProfilePage redirect={(url) => visited.push(url)} />, { api });
    await userEvent.click(await within(limitsCard()).findByRole('button', { name: 'Manage subscription' }));
    await waitFor(() => {
      expect(visited).toEqual(['https://billing.example/portal/1']);
    });
    expect(api.callsTo('POST /payments/portal')[0]?.body).toEqual({
      returnUrl: `${window.location.origin}/profile`,
    });
  });

  it('reports a payment call that fails', async () => {
    const visited: string[] = [];
    const api = createFakeApi({
      'GET /users/stats': () => stats({ tier: 'Personal' }),
      'POST /payments/portal': () => {
        throw apiError(502, 'INTERNAL');
      },
    });
    renderScreen(<ProfilePage redirect={(url) => visited.push(url)} />, { api });
    await userEvent.click(await within(limitsCard()).findByRole('button', { name: 'Manage subscription' }));
    expect(
      await screen.findByText('Could not open the billing portal. Please try again.', {
        selector: '[role="alert"] *',
      }),
    ).toBeTruthy();
    expect(visited).toEqual([]);
  });

  it('shows the user safety number when the user has a key', async () => {
    const api = createFakeApi({
      'GET /users/stats': () => stats({}),
      'GET /users/keys/active': () => ({ keyId: 'k1', publicKey: 'AAECAwQFBgcICQ==' }),
    });
    renderScreen(<ProfilePage />, { api });
    const safetyNumber = await screen.findByLabelText('Your safety number');
    expect(safetyNumber.textContent).toMatch(/^([0-9A-F]{4} ){15}[0-9A-F]{4}$/);
  });
});
