import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { getAppSession } from '../../session/app-session';
import { SESSION_ENDED_FLAG, TRANSFERS_CANCELLED_FLAG } from '../../lib/storage/session-flags';
import { renderRoute } from '../../test/render';

const GENERIC =
  'Log in or create an account to store and share files that only you and the people you choose can read.';

describe('landing page', () => {
  it('invites the visitor to log in or create an account', () => {
    renderRoute('/landing');
    expect(screen.getByRole('heading', { level: 1 })).toBeTruthy();
    expect(screen.getByText(GENERIC)).toBeTruthy();
    expect(screen.getAllByRole('link', { name: /Log in/ }).length).toBeGreaterThan(0);
    expect(screen.getByRole('link', { name: 'Create account' }).getAttribute('href')).toBe(
      '/unlock?action=sign-up',
    );
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('names the inviter for reason=invite-email', () => {
    renderRoute('/landing?reason=invite-email&fileId=alice%40example.com');
    expect(
      screen.getByText('alice@example.com invited you to exchange end-to-end encrypted files'),
    ).toBeTruthy();
  });

  it('does not show an invite fileId that is not an email address', () => {
    renderRoute('/landing?reason=invite-email&fileId=Call%20us%20now');
    expect(screen.getByText('You have been invited to exchange end-to-end encrypted files')).toBeTruthy();
    expect(screen.queryByText(/Call us now/)).toBeNull();
  });

  it('tells the visitor a file was shared for reason=file-share', () => {
    renderRoute('/landing?reason=file-share&fileId=f-123');
    expect(screen.getByText('Someone shared a file with you')).toBeTruthy();
    expect(
      screen.getByText('The file is end-to-end encrypted. Log in or create an account to open it.'),
    ).toBeTruthy();
  });

  it('points to new activity for reason=email-notification', () => {
    renderRoute('/landing?reason=email-notification');
    expect(screen.getByText('You have something new in Coffer')).toBeTruthy();
  });

  it.each(['/landing?reason=other', '/landing?reason=unknown'])('is generic for %s', (path) => {
    renderRoute(path);
    expect(screen.getByText(GENERIC)).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says once that the session ended when it ended by itself', () => {
    sessionStorage.setItem(SESSION_ENDED_FLAG, 'true');
    const { unmount } = renderRoute('/landing');
    expect(screen.getByRole('status').textContent).toContain('Your session ended. Log in again.');
    expect(sessionStorage.getItem(SESSION_ENDED_FLAG)).toBeNull();
    unmount();
    renderRoute('/landing');
    expect(screen.queryByText('Your session ended. Log in again.')).toBeNull();
  });

  it('keeps the notice for the landing page after the provider while the logout is still running', () => {
    sessionStorage.setItem(SESSION_ENDED_FLAG, 'true');
    const logoutRunning = vi.spyOn(getAppSession(), 'isLoggingOut').mockReturnValue(true);
    try {
      // The render while signing out, before the tab leaves for the end-session page.
      const { unmount } = renderRoute('/landing');
      expect(screen.getByRole('status').textContent).toContain('Your session ended. Log in again.');
      expect(sessionStorage.getItem(SESSION_ENDED_FLAG)).toBe('true');
      unmount();
    } finally {
      logoutRunning.mockRestore();
    }
    // Back from the provider: said, then forgotten.
    renderRoute('/landing');
    expect(screen.getByRole('status').textContent).toContain('Your session ended. Log in again.');
    expect(sessionStorage.getItem(SESSION_ENDED_FLAG)).toBeNull();
  });

  it('says once how many transfers a logout cancelled', () => {
    sessionStorage.setItem(
      TRANSFERS_CANCELLED_FLAG,
      JSON.stringify(['2 uploads cancelled', 'Download cancelled']),
    );
    const { unmount } = renderRoute('/landing');
    const status = screen.getByRole('status');
    expect(status.textContent).toContain('Logging out cancelled transfers in progress');
    expect(status.textContent).toContain(
      '2 uploads cancelled. Download cancelled. Start them again after you log in.',
    );
    expect(sessionStorage.getItem(TRANSFERS_CANCELLED_FLAG)).toBeNull();
    unmount();
    renderRoute('/landing');
    expect(screen.queryByText('Logging out cancelled transfers in progress')).toBeNull();
  });

  it('ignores a cancelled-transfers flag that is not a list of lines', () => {
    sessionStorage.setItem(TRANSFERS_CANCELLED_FLAG, '{"x":1}');
    renderRoute('/landing');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('pitches end-to-end encryption', () => {
    renderRoute('/landing');
    expect(screen.getByRole('heading', { name: 'Encrypted in your browser' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'The server never sees the content' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Share with your contacts' })).toBeTruthy();
  });
});
