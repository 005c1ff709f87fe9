/**
 * Renders one screen against a fake API client, a test user, an optional test session and a fake
 * transfer manager, for component tests of every feature area. Imported only by tests.
 */
import type { ReactElement } from 'react';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications, notifications } from '@mantine/notifications';
import { render, screen, type RenderResult } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { AppSession } from '../session/app-session';
import { CurrentUserContext, type SessionUser } from '../session/current-user';
import { AppSessionContext } from '../session/session-context';
import { createQueryClient } from '../app/query-client';
import { theme } from '../app/theme';
import { TransferManagerContext } from '../features/files/use-transfers';
import { ApiClientContext } from '../lib/api/context';
import type { TransferManager } from '../lib/transfers';
import { createFakeTransferManager } from './fake-transfer-manager';
import type { FakeApi } from './fake-api';
import { testUser } from './fixtures';

export { apiError, createFakeApi } from './fake-api';
export type { FakeApi, RecordedCall } from './fake-api';
export { createFakeTransferManager, type FakeTransferManager } from './fake-transfer-manager';
export * from './fixtures';

export interface RenderScreenOptions {
  api: FakeApi;
  /** The signed-in person; `null` for none. Defaults to `testUser`. */
  user?: SessionUser | null;
  /** The tab's session (keys, login); without one, screens use the app's default session. */
  session?: AppSession;
  manager?: TransferManager;
  /** The route pattern the screen is mounted at, e.g. '/invite/:id'. */
  route?: string;
  /** The URL to start at; defaults to `route`. */
  path?: string;
  /** The query cache; defaults to one without retries or stale times (see {@link appQueryClient}). */
  queryClient?: QueryClient;
}

export interface RenderedScreen extends RenderResult {
  router: ReturnType<typeof createMemoryRouter>;
  queryClient: QueryClient;
}

/** A query cache with the app's defaults (a list is fresh for 30 s), without retries. */
export function appQueryClient(): QueryClient {
  return createQueryClient({ retry: false });
}

/** Renders `ui` with Mantine (test mode: no transitions or portals), snackbars, queries and a router. */
export function renderScreen(ui: ReactElement, options: RenderScreenOptions): RenderedScreen {
  notifications.clean();
  const route = options.route ?? '/';
  const queryClient =
    options.queryClient ??
    new QueryClient({
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
          <AppSessionContext.Provider value={options.session ?? null}>
            <TransferManagerContext.Provider value={options.manager ?? createFakeTransferManager()}>
              <CurrentUserContext.Provider value={options.user === undefined ? testUser : options.user}>
                <ModalsProvider>
                  <Notifications />
                  <RouterProvider router={router} />
                </ModalsProvider>
              </CurrentUserContext.Provider>
            </TransferManagerContext.Provider>
          </AppSessionContext.Provider>
        </ApiClientContext.Provider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...result, router, queryClient };
}

/** A snackbar with exactly this text: danger ones have role alert, others role status. */
export function findSnackbar(
  text: string,
  role: 'alert' | 'status' = 'alert',
  timeout?: number,
): Promise<HTMLElement> {
  return screen.findByText(
    text,
    { selector: `[role="${role}"] *` },
    timeout === undefined ? {} : { timeout },
  );
}
