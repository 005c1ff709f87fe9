import { act, screen, within } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render';
import { SNACKBAR_AUTO_CLOSE_MS, showSnackbar, snackbarOptions } from './snackbar';

describe('snackbar', () => {
  afterEach(() => {
    act(() => {
      notifications.clean();
    });
  });

  it('auto-hides after 8 seconds and can be closed', () => {
    const options = snackbarOptions('Saved');
    expect(SNACKBAR_AUTO_CLOSE_MS).toBe(8000);
    expect(options.autoClose).toBe(8000);
    expect(options.withCloseButton).toBe(true);
    expect(options.allowClose).toBe(true);
    expect(options.message).toBe('Saved');
  });

  it('maps success, danger and warning to green, red and orange', () => {
    expect(snackbarOptions('a', 'success').color).toBe('green');
    expect(snackbarOptions('a', 'danger').color).toBe('red');
    expect(snackbarOptions('a', 'warning').color).toBe('orange');
    expect(snackbarOptions('a').color).toBe('green');
  });

  it('shows the message with a close button', async () => {
    renderWithProviders(<p>app</p>);
    act(() => {
      showSnackbar('Error loading files!', 'danger');
    });
    const toast = await screen.findByRole('alert');
    expect(toast.textContent).toContain('Error loading files!');
    expect(toast.querySelector('button')).not.toBeNull();
    // Named for screen readers (the button shows an icon only).
    expect(within(toast).getByRole('button', { name: 'Close notification' })).toBeTruthy();
  });
});
