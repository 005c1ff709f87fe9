import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../AppProviders';
import { ChunkLoadTimeoutError } from './lazy-page';
import { RouteErrorBoundary } from './RouteErrorBoundary';

function renderFailingRoute(error: Error): ReturnType<typeof createMemoryRouter> {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        errorElement: <RouteErrorBoundary />,
        HydrateFallback: () => null,
        children: [
          { path: 'landing', element: <p>Landing</p> },
          {
            path: 'broken',
            loader: () => {
              throw error;
            },
            element: <p>never</p>,
          },
        ],
      },
    ],
    { initialEntries: ['/broken'] },
  );
  render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

describe('RouteErrorBoundary', () => {
  it('sends a navigation error to /landing', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const router = renderFailingRoute(new Error('boom'));
    expect(await screen.findByText('Landing')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/landing');
  });

  it('offers a reload when part of the app did not load', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const router = renderFailingRoute(new ChunkLoadTimeoutError(120_000));
    expect(await screen.findByRole('button', { name: /Reload/ })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/broken');
  });
});
