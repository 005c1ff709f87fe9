import { useState, type ReactElement, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { GlobalOverlay } from './layout/GlobalOverlay';
import { createQueryClient } from './query-client';
import { theme } from './theme';

interface AppProvidersProps {
  children: ReactNode;
  /** Tests pass their own client; the app makes one. */
  queryClient?: QueryClient;
}

/**
 * Everything the screens rely on: theme, modals, snackbars, the global overlay and the query cache.
 * Extension point: the auth and encryption session providers go inside `QueryClientProvider`.
 *
 * The colour scheme is fixed to light; `index.html` carries the attribute that `ColorSchemeScript`
 * would set, so no inline script is needed.
 */
export function AppProviders({ children, queryClient }: AppProvidersProps): ReactElement {
  const [client] = useState(() => queryClient ?? createQueryClient());

  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <QueryClientProvider client={client}>
        <ModalsProvider>
          <Notifications position="top-right" limit={5} />
          <GlobalOverlay />
          {children}
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
