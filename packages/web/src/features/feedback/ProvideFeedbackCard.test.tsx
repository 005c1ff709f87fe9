import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it } from 'vitest';
import { apiError, createFakeApi, renderScreen } from '../../test/render-screen';
import { ProvideFeedbackCard } from './ProvideFeedbackCard';

afterEach(() => {
  act(() => {
    notifications.clean();
  });
});

const textarea = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Your feedback' });
const send = () => screen.getByRole('button', { name: 'Send feedback' });

describe('Provide Feedback card', () => {
  it('counts characters out of 2000', async () => {
    renderScreen(<ProvideFeedbackCard />, { api: createFakeApi() });
    expect(screen.getByText('0/2000')).toBeTruthy();
    await userEvent.type(textarea(), 'Hello');
    expect(screen.getByText('5/2000')).toBeTruthy();
  });

  it('asks for feedback when it is blank', async () => {
    const api = createFakeApi();
    renderScreen(<ProvideFeedbackCard />, { api });
    expect(screen.queryByText('Please enter your feedback')).toBeNull();
    await userEvent.type(textarea(), '   ');
    await userEvent.click(send());
    expect(screen.getByText('Please enter your feedback')).toBeTruthy();
    expect(api.calls).toHaveLength(0);
  });

  it('refuses more than 2000 characters', async () => {
    const api = createFakeApi();
    renderScreen(<ProvideFeedbackCard />, { api });
    fireEvent.change(textarea(), { target: { value: 'x'.repeat(2001) } });
    expect(screen.getByText('2001/2000')).toBeTruthy();
    expect(screen.getByText('Feedback exceeds maximum length of 2000 characters')).toBeTruthy();
    await userEvent.click(send());
    expect(api.calls).toHaveLength(0);
    fireEvent.change(textarea(), { target: { value: 'x'.repeat(2000) } });
    expect(screen.queryByText('Feedback exceeds maximum length of 2000 characters')).toBeNull();
  });

  it('sends feedback, thanks the user and clears the box', async () => {
    const api = createFakeApi({ 'POST /feedback': () => ({ ok: true }) });
    renderScreen(<ProvideFeedbackCard />, { api });
    await userEvent.type(textarea(), '  Love it  ');
    await userEvent.click(send());
    expect(await screen.findByText('Thank you for your feedback!')).toBeTruthy();
    expect(api.callsTo('POST /feedback')[0]?.body).toEqual({ message: 'Love it' });
    await waitFor(() => {
      expect(textarea().value).toBe('');
    });
    expect(screen.getByText('0/2000')).toBeTruthy();
    expect(screen.queryByText('Please enter your feedback')).toBeNull();
  });

  it('reports a failed submission and keeps the text', async () => {
    const api = createFakeApi({
      'POST /feedback': () => {
        throw apiError(500, 'INTERNAL');
      },
    });
    renderScreen(<ProvideFeedbackCard />, { api });
    await userEvent.type(textarea(), 'Bug report');
    await userEvent.click(send());
    expect(
      await screen.findByText('Error submitting feedback', { selector: '[role="alert"] *' }),
    ).toBeTruthy();
    expect(textarea().value).toBe('Bug report');
  });
});
