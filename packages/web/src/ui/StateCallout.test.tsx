import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { IconRefresh, IconShieldX } from '@tabler/icons-react';
import { describe, expect, it, vi } from 'vitest';
import { StateCallout } from './StateCallout';

const REFUSED = { label: 'Coffer refused to open this file', color: 'red', icon: IconShieldX } as const;

describe('state callout', () => {
  it('is an alert by default: the state as its title, the reason under it', () => {
    render(
      <MantineProvider>
        <StateCallout look={REFUSED} reason="The signature does not match." />
      </MantineProvider>,
    );
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText('Coffer refused to open this file')).toBeTruthy();
    expect(within(alert).getByText('The signature does not match.')).toBeTruthy();
    expect(within(alert).queryByRole('button')).toBeNull();
  });

  it('is a status when told so', () => {
    render(
      <MantineProvider>
        <StateCallout look={{ label: 'Shared before', color: 'orange' }} role="status" reason="Ask again." />
      </MantineProvider>,
    );
    expect(screen.getByRole('status').textContent).toContain('Ask again.');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('offers its actions as buttons, and says why the last one failed', async () => {
    const retry = vi.fn();
    render(
      <MantineProvider>
        <StateCallout
          look={REFUSED}
          reason="Check your connection."
          actions={[{ label: 'Try again', icon: IconRefresh, onClick: retry }]}
          actionError="It failed again."
        />
      </MantineProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalledOnce();
    expect(screen.getByText('It failed again.')).toBeTruthy();
  });
});
