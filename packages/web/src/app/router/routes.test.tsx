import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '../../test/render';

describe('route table', () => {
  it('redirects / to /new', async () => {
    const { router } = renderRoute('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'New Upload' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/new');
  });

  it.each([
    ['/new', 'New Upload'],
    ['/myfiles', 'My Files'],
    ['/sharedwithme', 'Shared With Me'],
    ['/contacts', 'Contacts'],
    ['/profile', 'Profile'],
    ['/feedback', 'Feedback'],
    ['/unlock', 'Unlock Encryption'],
    ['/share/file-1', 'Files Received'],
  ])('renders the placeholder of %s', async (path, title) => {
    renderRoute(path);
    const heading = await screen.findByRole('heading', { level: 1, name: title });
    expect(heading.closest('[data-placeholder]')?.getAttribute('data-placeholder')).toBe(title);
    expect(screen.getByText('Placeholder')).toBeTruthy();
  });

  it('shows the sidenav entries around the signed-in placeholders', async () => {
    renderRoute('/myfiles');
    await screen.findByRole('heading', { level: 1, name: 'My Files' });
    const sidebar = screen.getByLabelText('Sidebar');
    for (const label of ['Profile', 'Logout', 'New Upload', 'My Files', 'Shared With Me', 'Contacts']) {
      expect(within(sidebar).getByText(label)).toBeTruthy();
    }
    expect(
      within(sidebar)
        .getByRole('link', { name: /My Files/ })
        .getAttribute('aria-current'),
    ).toBe('page');
  });

  it('hides the sidebar and top bar on /unlock while encryption is not ready', async () => {
    renderRoute('/unlock');
    await screen.findByRole('heading', { level: 1, name: 'Unlock Encryption' });
    expect(screen.queryByLabelText('Sidebar')).toBeNull();
  });

  it('shows the not-found page with the path for an unknown path', () => {
    renderRoute('/no/such/page');
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    expect(screen.getByText('/no/such/page')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Back to home/ }).getAttribute('href')).toBe('/');
  });

  it('shows the logged-out page on /login', async () => {
    renderRoute('/login');
    expect(await screen.findByRole('heading', { name: 'You have been logged out' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Log in' })).toBeTruthy();
  });

  it('welcomes an invited user on /invite/:id', async () => {
    renderRoute('/invite/alice%40example.com?reason=invite-email');
    expect(await screen.findByText('You can now exchange end-to-end encrypted files.')).toBeTruthy();
    const main = screen.getByRole('main');
    expect(
      within(main)
        .getByRole('link', { name: /Go to Contacts/ })
        .getAttribute('href'),
    ).toBe('/contacts');
    expect(
      within(main)
        .getByRole('link', { name: /New Upload/ })
        .getAttribute('href'),
    ).toBe('/new');
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
    expect(
      within(footer.parentElement ?? footer)
        .getByRole('link', { name: 'Coffer' })
        .getAttribute('href'),
    ).toBe('https://coffer.example');
  });
});
