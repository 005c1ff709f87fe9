import { useState, type ReactElement } from 'react';
import { RouterProvider } from 'react-router/dom';
import { AnalyticsConsentPrompt } from '../features/analytics/AnalyticsConsent';
import { transferManager } from '../lib/transfers';
import { cancelledSummary } from '../lib/transfers/cancelled-summary';
import { snackbar } from '../lib/snackbar';
import { AppProviders } from './AppProviders';
import { createAppRouter } from './router/router';
import { getAppSession } from './session/app-session';

// Uploads and downloads count as operations in progress: logout aborts them, and leaving the route
// or the page while one runs asks first (spec sections 2 and 4).
getAppSession().operations.addSource({
  hasActive: () => transferManager.hasActiveOperations(),
  abortAll: () => transferManager.abortAllOperations(),
  describeActive: () => cancelledSummary(transferManager.getSnapshot()),
  abortForNavigation: async () => {
    const cancelled = cancelledSummary(transferManager.getSnapshot());
    await transferManager.abortAllForNavigation();
    for (const line of cancelled) snackbar.warning(line);
  },
  subscribe: (listener) => transferManager.subscribe(listener),
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
