import { act, configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import type { MeResponse } from '@coffer/contracts';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setAppSession } from '../../session/app-session';
import { createTestAppSession, type TestAppSessionOptions } from '../../session/testing/test-session';
import { sessionUserFromClaims } from '../../lib/auth/session-user';
import { renderRoute } from '../../test/render';
import { apiError, createFakeApi, type FakeApi } from '../../test/fake-api';

// A plus-address: the screen must show it exactly, not a "cleaned" form.
const EMAIL = 'ann+work@example.com';
const annUser = sessionUserFromClaims({ sub: 'ann', name: 'Ann', email: EMAIL, emails: [EMAIL] });
const unverified: MeResponse = {
  email: EMAIL,
  emailVerified: false,
  isAdmin: false,
  canResendVerification: true,
};

async function open(path: string, options: TestAppSessionOptions & { api?: FakeApi } = {}) {
  const api = options.api ?? createFakeApi();
  const session = await createTestAppSession({ user: annUser, me: unverified, ...options, api });
  setAppSession(session);
  const rendered = renderRoute(path);
  return { session, rendered, api };
}

vi.setConfig({ testTimeout: 60_000 });
beforeAll(() => {
  configure({ asyncUtilTimeout: 10_000 });
});

afterEach(() => {
  vi.restoreAllMocks();
  setAppSession(null);
  act(() => {
    notifications.clean();
  });
});

const user = () => userEvent.setup({ delay: null });
const verifyTitle = () => screen.findByRole('heading', { level: 1, name: 'Verify your email' });

describe('verify your email (/unlock)', () => {
  it('comes before the set-up form, names the exact address and takes focus', async () => {
    const { session } = await open('/unlock');
    const title = await verifyTitle();
    expect(document.activeElement).toBe(title);
    expect(screen.getByText(EMAIL, { exact: true })).toBeTruthy();
    expect(screen.getByText(/We sent a confirmation link to/)).toBeTruthy();
    expect(screen.queryByLabelText(/^Master unlock key/)).toBeNull();
    // An unverified caller has no keys: the keys are not even asked for.
    expect(session.keysServer.calls).toEqual([]);
    expect(screen.getByRole('button', { name: 'Resend email' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'I’ve confirmed my email' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeTruthy();
  });

  it('resends the mail and says where it went', async () => {
    const api = createFakeApi({ 'POST /users/me/verification-email': () => ({ ok: true }) });
    await open('/unlock', { api });
    await user().click(await screen.findByRole('button', { name: 'Resend email' }));
    expect(await screen.findByText(`We sent a new confirmation link to ${EMAIL}.`)).toBeTruthy();
    expect(api.callsTo('POST /users/me/verification-email')).toHaveLength(1);
  });

  it('says to wait when the server refuses another mail so soon (429)', async () => {
    const api = createFakeApi({
      'POST /users/me/verification-email': () => {
        throw apiError(429, 'RATE_LIMITED', 'Too many requests');
      },
    });
    await open('/unlock', { api });
    await user().click(await screen.findByRole('button', { name: 'Resend email' }));
    expect(
      await screen.findByText(
        'You asked for several emails in a short time. Please wait a few minutes and try again.',
      ),
    ).toBeTruthy();
  });

  it('“I’ve confirmed my email” renews the token first and stays while the address is unconfirmed', async () => {
    const { session } = await open('/unlock');
    await user().click(await screen.findByRole('button', { name: 'I’ve confirmed my email' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByText(/Your address is not confirmed yet/)).toBeTruthy();
    expect(session.auth.renewals()).toBe(1);
    expect(screen.getByRole('heading', { level: 1, name: 'Verify your email' })).toBeTruthy();
  });

  it('goes on to Set Up Encryption once the renewed token says verified', async () => {
    const { session } = await open('/unlock');
    session.auth.onRenew = () => {
      session.setMe({ emailVerified: true });
      return true;
    };
    const calls = session.meCalls();
    await user().click(await screen.findByRole('button', { name: 'I’ve confirmed my email' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Set Up Encryption' })).toBeTruthy();
    expect(await screen.findByText('Your email address is confirmed.')).toBeTruthy();
    expect(session.meCalls()).toBeGreaterThan(calls);
    expect(await screen.findByLabelText(/^Master unlock key/)).toBeTruthy();
    expect(session.keysServer.calls).toContain('GET /users/keys');
  });

  it('shows no problem when the tokens cannot be renewed (the session logs out instead)', async () => {
    const { session } = await open('/unlock');
    session.auth.onRenew = () => false;
    await user().click(await screen.findByRole('button', { name: 'I’ve confirmed my email' }));
    await waitFor(() => {
      expect(session.auth.renewals()).toBe(1);
    });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('for an external issuer: no resend, a hint to confirm with the provider', async () => {
    await open('/unlock', { me: { ...unverified, canResendVerification: false } });
    await verifyTitle();
    expect(screen.queryByRole('button', { name: 'Resend email' })).toBeNull();
    expect(screen.getByText(/Your sign-in provider confirms your address, not Coffer/)).toBeTruthy();
    expect(screen.getByText(EMAIL, { exact: true })).toBeTruthy();
  });

  it('Logout leaves through the provider to /login', async () => {
    const { session } = await open('/unlock');
    await verifyTitle();
    await user().click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => {
      expect(session.auth.redirects).toContain('end-session /login');
    });
  });

  it('a verified user gets the unlock form straight away', async () => {
    await open('/unlock', { me: { ...unverified, emailVerified: true } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Set Up Encryption' })).toBeTruthy();
    expect(screen.queryByText('Verify your email')).toBeNull();
  });

  it('a keys call refused with EMAIL_NOT_VERIFIED shows the verify screen too', async () => {
    const session = await createTestAppSession({
      user: annUser,
      me: { ...unverified, emailVerified: true },
    });
    vi.spyOn(session.encryption, 'getSetupStatus').mockRejectedValue(apiError(403, 'EMAIL_NOT_VERIFIED'));
    setAppSession(session);
    renderRoute('/unlock');
    expect(await verifyTitle()).toBeTruthy();
  });
});

describe('EMAIL_NOT_VERIFIED on another screen', () => {
  const refusingContacts = () =>
    createFakeApi({
      'GET /users/contacts': () => {
        throw apiError(403, 'EMAIL_NOT_VERIFIED');
      },
      'GET /users/stats': () => {
        throw apiError(503, 'UNAVAILABLE');
      },
    });

  it('drops the unlocked keys and shows the verify screen when /users/me agrees', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { session, rendered } = await open('/contacts', { unlocked: true, api: refusingContacts() });
    await waitFor(() => {
      expect(rendered.router.state.location.pathname).toBe('/unlock');
    });
    expect(await verifyTitle()).toBeTruthy();
    expect(session.encryption.isUnlocked()).toBe(false);
  });

  it('stays when /users/me says the caller is verified', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { session, rendered } = await open('/contacts', {
      unlocked: true,
      api: refusingContacts(),
      me: { ...unverified, emailVerified: true },
    });
    await waitFor(() => {
      expect(session.meCalls()).toBeGreaterThan(0);
    });
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(rendered.router.state.location.pathname).toBe('/contacts');
    expect(session.encryption.isUnlocked()).toBe(true);
  });
});
