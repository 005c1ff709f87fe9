import { useState, type ReactElement } from 'react';
import { RouterProvider } from 'react-router/dom';
import { AnalyticsConsentPrompt } from '../features/analytics/AnalyticsConsent';
import { cancelledSummary } from '../lib/transfers/cancelled-summary';
import { loadedTransferManager, subscribeToTransfers } from '../lib/transfers/loaded-manager';
import { snackbar } from '../lib/snackbar';
import { AppProviders } from './AppProviders';
import { createAppRouter } from './router/router';
import { getAppSession } from '../session/app-session';

// Uploads and downloads count as operations in progress: logout aborts them, and leaving the route
// or the page while one runs asks first (spec sections 2 and 4). The engine loads with the first
// screen that moves files; before that there is nothing to abort.
getAppSession().operations.addSource({
  hasActive: () => loadedTransferManager()?.hasActiveOperations() ?? false,
  abortAll: async () => {
    await loadedTransferManager()?.abortAllOperations();
  },
  describeActive: () => {
    const manager = loadedTransferManager();
    return manager === undefined ? [] : cancelledSummary(manager.getSnapshot());
  },
  abortForNavigation: async () => {
    const manager = loadedTransferManager();
    if (manager === undefined) return;
    const cancelled = cancelledSummary(manager.getSnapshot());
    await manager.abortAllForNavigation();
    for (const line of cancelled) snackbar.warning(line);
  },
  subscribe: subscribeToTransfers,
});

export function App(): ReactElement {
  const [router] = useState(createAppRouter);
  return (
    <AppProviders>
      <RouterProvider router={router} />
      <AnalyticsConsentPrompt />
    </AppProviders>
  );
}
