import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { sessionStorageKeys } from '@coffer/contracts';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderRoute } from '../../test/render';
import { setAppSession } from '../../session/app-session';
import {
  createTestAppSession,
  type TestAppSessionOptions,
  type TestAppSession,
} from '../../session/testing/test-session';

async function withSession(options: TestAppSessionOptions): Promise<TestAppSession> {
  const session = await createTestAppSession(options);
  setAppSession(session);
  return session;
}

// Whole-app renders with lazy screens and real key derivation: slow on a busy machine, so the waits
// are generous (a timed-out test would otherwise keep typing into the next test's screen).
vi.setConfig({ testTimeout: 60_000 });
beforeAll(() => {
  configure({ asyncUtilTimeout: 10_000 });
});

afterEach(() => {
  act(() => {
    notifications.clean();
  });
});

const pathOf = (rendered: ReturnType<typeof renderRoute>): string => rendered.router.state.location.pathname;

describe('route table for a signed-in, unlocked user', () => {
  it('redirects / to /new', async () => {
    await withSession({ unlocked: true });
    const rendered = renderRoute('/');
    await waitFor(() => {
      expect(pathOf(rendered)).toBe('/new');
    });
  });

  it.each([
    '/new',
    '/myfiles',
    '/sharedwithme',
    '/contacts',
    '/profile',
    '/feedback',
    '/share/file-1',
    '/invite/x',
  ])('opens %s inside the app shell', async (path) => {
    await withSession({ unlocked: true });
    const rendered = renderRoute(path);
    expect(await screen.findByLabelText('Sidebar')).toBeTruthy();
    expect(pathOf(rendered)).toBe(path);
  });

  it('shows the sidenav entries, with Logout under Profile', async () => {
    await withSession({ unlocked: true });
    renderRoute('/myfiles');
    const sidebar = await screen.findByLabelText('Sidebar');
    for (const label of ['Profile', 'Logout', 'New Upload', 'My Files', 'Shared With Me', 'Contacts']) {
      expect(within(sidebar).getByText(label)).toBeTruthy();
    }
    expect(
      within(sidebar)
        .getByRole('link', { name: /My Files/ })
        .getAttribute('aria-current'),
    ).toBe('page');
  });

  it('remembers the current full path for after unlock', async () => {
    const session = await withSession({ unlocked: true });
    renderRoute('/contacts?q=ada');
    await screen.findByLabelText('Sidebar');
    expect(session.flags.get(sessionStorageKeys.redirectAfterUnlock)).toBe('/contacts?q=ada');
  });

  it('sends /unlock on to the remembered path', async () => {
    const session = await withSession({ unlocked: true });
    session.flags.set(sessionStorageKeys.redirectAfterUnlock, '/sharedwithme');
    const rendered = renderRoute('/unlock');
    await waitFor(() => {
      expect(pathOf(rendered)).toBe('/sharedwithme');
    });
  });

  it('sends /unlock on to /new when nothing was remembered', async () => {
    await withSession({ unlocked: true });
    const rendered = renderRoute('/unlock');
    await waitFor(() => {
      expect(pathOf(rendered)).toBe('/new');
    });
  });

  it('goes to /unlock when encryption stops being ready', async () => {
    const session = await withSession({ unlocked: true });
    const rendered = renderRoute('/myfiles');
    await screen.findByLabelText('Sidebar');
    await act(async () => {
      await session.encryption.clear();
    });
    await waitFor(() => {
      expect(pathOf(rendered)).toBe('/unlock');
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Unlock Encryption' })).toBeTruthy();
    expect(screen.queryByLabelText('Sidebar')).toBeNull();
  });

  it('logs out from the sidenav: clears the session and ends at /landing', async () => {
    const session = await withSession({ unlocked: true });
    session.storage.setItem('something', 'cached');
    renderRoute('/myfiles');
    const sidebar = await screen.findByLabelText('Sidebar');
    await userEvent.click(within(sidebar).getByText('Logout'));
    await waitFor(() => {
      expect(session.auth.redirects).toEqual(['end-session /landing']);
    });
    expect(session.encryption.isUnlocked()).toBe(false);
    expect(session.auth.getSnapshot().status).toBe('signed-out');
    expect(session.storage.length).toBe(0);
  });
});

describe('route table for a signed-in user with locked encryption', () => {
  it('sends an auth-required route to /unlock and offers set-up when there are no keys', async () => {
    const session = await withSession({});
    const rendered = renderRoute('/contacts');
    expect(await screen.findByRole('heading', { level: 1, name: 'Set Up Encryption' })).toBeTruthy();
    expect(pathOf(rendered)).toBe('/unlock');
    expect(session.flags.get(sessionStorageKeys.redirectAfterUnlock)).toBe('/contacts');
    expect(screen.queryByLabelText('Sidebar')).toBeNull();
  });

  it('offers unlock when keys exist, then returns to the remembered path', async () => {
    await withSession({ hasKeys: true });
    const rendered = renderRoute('/sharedwithme');
    expect(await screen.findByRole('heading', { level: 1, name: 'Unlock Encryption' })).toBeTruthy();
    await userEvent.type(await screen.findByLabelText(/Master unlock key/), 'Test-Master-Key-1');
    await userEvent.click(screen.getByRole('button', { name: 'Unlock' }));
    await waitFor(() => {
      expect(pathOf(rendered)).toBe('/sharedwithme');
    });
    expect(await screen.findByText('Encryption unlocked successfully')).toBeTruthy();
    expect(await screen.findByLabelText('Sidebar')).toBeTruthy();
  });

  it('restores the keys from session storage before sending anyone to /unlock', async () => {
    const before = await createTestAppSession({ unlocked: true });
    const reloaded = await withSession({ reloadOf: before });
    expect(reloaded.encryption.isUnlocked()).toBe(false);
    const rendered = renderRoute('/profile');
    expect(await screen.findByLabelText('Sidebar')).toBeTruthy();
    expect(pathOf(rendered)).toBe('/profile');
    expect(reloaded.encryption.keyVersion).toBe(before.encryption.keyVersion);
  });

  it('logs out from the unlock screen to /login', async () => {
    const session = await withSession({});
    renderRoute('/unlock');
    await screen.findByRole('heading', { level: 1, name: 'Set Up Encryption' });
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => {
      expect(session.auth.redirects).toEqual(['end-session /login']);
    });
  });
});

describe('route table for a visitor', () => {
  it('sends an auth-required route to /landing and remembers it', async () => {
    const session = await withSession({ signedIn: false });
    const rendered = renderRoute('/contacts');
    await waitFor(() => {
      expect(pathOf(rendered)).toBe('/landing');
    });
    expect(session.flags.get(sessionStorageKeys.redirectAfterUnlock)).toBe('/contacts');
  });

  it('sends /unlock to /landing when no sign-in is in progress', async () => {
    await withSession({ signedIn: false });
    const rendered = renderRoute('/unlock');
    await waitFor(() => {
      expect(pathOf(rendered)).toBe('/landing');
    });
  });

  it.each([
    ['/share/file-9', '/landing?reason=file-share&fileId=file-9'],
    ['/invite/alice%40example.com', '/landing?reason=invite-email&fileId=alice%40example.com'],
  ])('sends %s to %s', async (path, target) => {
    await withSession({ signedIn: false });
    const rendered = renderRoute(path);
    await waitFor(() => {
      expect(rendered.router.state.location.pathname + rendered.router.state.location.search).toBe(target);
    });
  });

  it('starts the sign-in from Log in and the sign-up from Create account, carrying the remembered path', async () => {
    const session = await withSession({ signedIn: false });
    session.flags.set(sessionStorageKeys.redirectAfterUnlock, '/contacts');
    renderRoute('/landing');
    await userEvent.click(within(screen.getByRole('main')).getByRole('link', { name: /Log in/ }));
    await waitFor(() => {
      expect(session.auth.redirects).toEqual(['sign-in /contacts']);
    });
  });

  it('completes the sign-in on /unlock?code=&state= and cleans the address', async () => {
    await withSession({ signedIn: false });
    const rendered = renderRoute('/unlock?code=abc&state=xyz');
    expect(await screen.findByRole('heading', { level: 1, name: 'Set Up Encryption' })).toBeTruthy();
    expect(rendered.router.state.location.search).toBe('');
  });
});

describe('public pages', () => {
  it('shows the not-found page with the path for an unknown path', () => {
    renderRoute('/no/such/page');
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    expect(screen.getByText('/no/such/page')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Back to home/ }).getAttribute('href')).toBe('/');
  });

  it('shows the logged-out page on /login, with Log in', async () => {
    renderRoute('/login');
    expect(await screen.findByRole('heading', { name: 'You have been logged out' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/unlock?action=sign-in');
  });

  it('renders the footer links', () => {
    renderRoute('/landing');
    const footer = screen.getByRole('navigation', { name: 'Footer' });
    for (const [label, href] of [
      ['Terms', '/terms'],
      ['Privacy', '/privacy'],
      ['FAQ', '/faq'],
      ['About', '/about'],
    ] as const) {
      expect(within(footer).getByRole('link', { name: label }).getAttribute('href')).toBe(href);
    }
    expect(screen.getByRole('link', { name: 'Coffer home' }).getAttribute('href')).toBe('/landing');
    // No VITE_COMPANY_URL in tests: the company name leads to the About page.
    expect(screen.getByRole('link', { name: 'Coffer' }).getAttribute('href')).toBe('/about');
  });
});
