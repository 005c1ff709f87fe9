import { useEffect, useState, type ReactElement, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { ApiClientContext } from '../lib/api/context';
import { GlobalOverlay } from './layout/GlobalOverlay';
import { createQueryClient } from './query-client';
import { getAppSession, type AppSession } from '../session/app-session';
import { CurrentUserContext } from '../session/current-user';
import { AppSessionContext, useAuthSnapshot } from '../session/session-context';
import { theme } from './theme';

interface AppProvidersProps {
  children: ReactNode;
  /** Tests pass their own client; the app makes one. */
  queryClient?: QueryClient;
  /** Tests pass their own session; the app uses the tab's (`getAppSession()`), as the route loaders do. */
  session?: AppSession;
}

/** The signed-in user (from the ID token's claims) and the API client that carries their tokens. */
function SessionProviders({ session, children }: { session: AppSession; children: ReactNode }): ReactElement {
  const { user } = useAuthSnapshot();
  return (
    <ApiClientContext value={session.api}>
      <CurrentUserContext value={user}>{children}</CurrentUserContext>
    </ApiClientContext>
  );
}

/**
 * Everything the screens rely on: theme, snackbars, the global overlay, the query cache and
 * the session (login, API client, encryption, current user).
 *
 * The colour scheme is fixed to light; `index.html` carries the attribute that `ColorSchemeScript`
 * would set, so no inline script is needed.
 */
export function AppProviders({ children, queryClient, session }: AppProvidersProps): ReactElement {
  const [client] = useState(() => queryClient ?? createQueryClient());
  const [appSession] = useState(() => session ?? getAppSession());

  // Logout clears the cached files, contacts and subscription state with the rest of the session.
  useEffect(
    () =>
      appSession.onLogout(() => {
        client.clear();
      }),
    [appSession, client],
  );

  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <QueryClientProvider client={client}>
        <AppSessionContext value={appSession}>
          <SessionProviders session={appSession}>
            <Notifications position="top-right" limit={5} />
            <GlobalOverlay />
            {children}
          </SessionProviders>
        </AppSessionContext>
      </QueryClientProvider>
    </MantineProvider>
  );
}
