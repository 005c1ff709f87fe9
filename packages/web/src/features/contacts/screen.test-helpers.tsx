/**
 * Renders a screen of this area against a fake API client, for component tests. Not a test file
 * itself (`*.test-helpers.tsx`), and imported only by tests.
 */
import type { ReactElement } from 'react';
import type { Contact, StatsResponse } from '@coffer/contracts';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications, notifications } from '@mantine/notifications';
import { render, type RenderResult } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { CurrentUserContext, type SessionUser } from '../../app/session/current-user';
import { theme } from '../../app/theme';
import { ApiClientContext } from '../../lib/api/context';
import { apiError, createFakeApi, type FakeApi, type RecordedCall } from '../../test/fake-api';

export { apiError, createFakeApi };
export type { FakeApi, RecordedCall };

export const testUser: SessionUser = {
  id: 'user-1',
  name: 'Grace Hopper',
  email: 'grace@example.com',
  color: '#1c7ed6',
  image: null,
  idTokenClaims: { idp: 'local', emails: ['grace@example.com'], country: 'GB' },
};

export function contact(overrides: Partial<Contact> & Pick<Contact, 'name' | 'email'>): Contact {
  return { color: '#0ca678', image: null, invited: false, ...overrides };
}

export function stats(overrides: {
  tier?: 'Free' | 'Personal';
  used?: number;
  storageLimit?: number;
  contacts?: number;
  maxContacts?: number;
  shares?: number;
  maxShares?: number;
  currentPeriodEnd?: string | null;
}): StatsResponse {
  return {
    subscription: {
      tier: overrides.tier ?? 'Free',
      limits: {
        storageLimit: overrides.storageLimit ?? 5,
        monthlyUploadLimit: 100,
        monthlyDownloadLimit: 500,
        maxContacts: overrides.maxContacts ?? 10,
        maxShares: overrides.maxShares ?? 20,
        maxConcurrentUploads: 1,
        currentPeriodEnd: overrides.currentPeriodEnd ?? null,
      },
    },
    storage: { used: overrides.used ?? 0 },
    transfers: { uploads: { count: 3 }, downloads: { count: 4 } },
    contacts: { count: overrides.contacts ?? 0 },
    sharing: { count: overrides.shares ?? 0 },
  };
}

interface RenderScreenOptions {
  api: FakeApi;
  user?: SessionUser | null;
  /** The route pattern the screen is mounted at, e.g. '/invite/:id'. */
  route?: string;
  /** The URL to start at; defaults to `route`. */
  path?: string;
}

export interface RenderedScreen extends RenderResult {
  router: ReturnType<typeof createMemoryRouter>;
  queryClient: QueryClient;
}

/** Renders `ui` with Mantine (test mode: no transitions or portals), snackbars, queries and a router. */
export function renderScreen(ui: ReactElement, options: RenderScreenOptions): RenderedScreen {
  notifications.clean();
  const route = options.route ?? '/';
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, retryDelay: 0 }, mutations: { retry: false } },
  });
  const router = createMemoryRouter(
    [
      { path: route, element: ui },
      { path: '*', element: <p>Another page</p> },
    ],
    { initialEntries: [options.path ?? route] },
  );
  const result = render(
    <MantineProvider theme={theme} env="test">
      <QueryClientProvider client={queryClient}>
        <ApiClientContext.Provider value={options.api}>
          <CurrentUserContext.Provider value={options.user === undefined ? testUser : options.user}>
            <ModalsProvider>
              <Notifications />
              <RouterProvider router={router} />
            </ModalsProvider>
          </CurrentUserContext.Provider>
        </ApiClientContext.Provider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...result, router, queryClient };
}
