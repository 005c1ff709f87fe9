import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatDateTime } from '@coffer/contracts';
import { notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it } from 'vitest';
import { apiError, createFakeApi, renderScreen } from '../../test/render-screen';
import { FeedbackPage } from './FeedbackPage';

afterEach(() => {
  act(() => {
    notifications.clean();
  });
});

const older = {
  id: 'f1',
  userEmail: 'ada@example.com',
  message: 'Great app',
  timestamp: '2026-01-02T10:00:00.000Z',
};
const newer = {
  id: 'f2',
  userEmail: 'alan@example.com',
  message: '   ',
  timestamp: '2026-03-04T10:00:00.000Z',
};

describe('admin Feedback page', () => {
  it('lists entries newest first with email, time and message', async () => {
    const api = createFakeApi({ 'GET /admin/feedback': () => ({ feedback: [older, newer] }) });
    renderScreen(<FeedbackPage />, { api });
    const entries = await screen.findAllByRole('article');
    expect(entries.map((entry) => entry.getAttribute('aria-label'))).toEqual([
      'Feedback from alan@example.com',
      'Feedback from ada@example.com',
    ]);
    const fromAda = screen.getByRole('article', { name: 'Feedback from ada@example.com' });
    expect(within(fromAda).getByText('Great app')).toBeTruthy();
    expect(within(fromAda).getByText(formatDateTime(older.timestamp))).toBeTruthy();
    const fromAlan = screen.getByRole('article', { name: 'Feedback from alan@example.com' });
    expect(within(fromAlan).getByText('No feedback provided')).toBeTruthy();
  });

  it('shows the empty state', async () => {
    renderScreen(<FeedbackPage />, {
      api: createFakeApi({ 'GET /admin/feedback': () => ({ feedback: [] }) }),
    });
    expect(await screen.findByText('No feedback received yet.')).toBeTruthy();
  });

  it('deletes an entry after a confirmation', async () => {
    let feedback = [older, newer];
    const api = createFakeApi({
      'GET /admin/feedback': () => ({ feedback }),
      'DELETE /admin/feedback/f1': () => {
        feedback = [newer];
        return { ok: true };
      },
    });
    renderScreen(<FeedbackPage />, { api });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Delete feedback from ada@example.com' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Delete feedback' });
    expect(within(dialog).getByText('ada@example.com')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => {
      expect(screen.queryByRole('article', { name: 'Feedback from ada@example.com' })).toBeNull();
    });
    expect(api.callsTo('DELETE /admin/feedback/f1')).toHaveLength(1);
    expect(screen.getByRole('article', { name: 'Feedback from alan@example.com' })).toBeTruthy();
  });

  it('keeps an entry whose delete was cancelled', async () => {
    const api = createFakeApi({ 'GET /admin/feedback': () => ({ feedback: [older] }) });
    renderScreen(<FeedbackPage />, { api });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Delete feedback from ada@example.com' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Delete feedback' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.calls.filter((call) => call.method === 'DELETE')).toHaveLength(0);
    expect(screen.getByRole('article', { name: 'Feedback from ada@example.com' })).toBeTruthy();
  });

  it('tells a non-admin they have no access, without an error snackbar', async () => {
    const api = createFakeApi({
      'GET /admin/feedback': () => {
        throw apiError(403, 'FORBIDDEN', 'Admins only');
      },
    });
    renderScreen(<FeedbackPage />, { api });
    expect(await screen.findByText("You don't have access to this page")).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('article')).toBeNull();
    expect(api.callsTo('GET /admin/feedback')).toHaveLength(1);
  });
});
