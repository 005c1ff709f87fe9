import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../AppProviders';
import { navigationErrorState } from '../../features/landing/navigation-error';
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
  it('sends a navigation error to /landing, saying which path failed', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const router = renderFailingRoute(new Error('boom'));
    expect(await screen.findByText('Landing')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/landing');
    expect(router.state.location.state).toEqual(navigationErrorState('error', '/broken'));
  });

  it('sends a part of the app that did not load to /landing as a load failure', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const router = renderFailingRoute(new ChunkLoadTimeoutError(120_000));
    expect(await screen.findByText('Landing')).toBeTruthy();
    expect(router.state.location.state).toEqual(navigationErrorState('load', '/broken'));
  });
});
