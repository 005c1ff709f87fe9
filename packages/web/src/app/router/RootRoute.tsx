import type { ReactElement } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { AnalyticsWatcher } from './AnalyticsWatcher';
import { NavigationProgress } from './NavigationProgress';
import { SessionWatchers } from './SessionWatchers';

/** The root route: everything else renders inside it, and its error element catches their errors. */
export function RootRoute(): ReactElement {
  return (
    <>
      <NavigationProgress />
      <SessionWatchers />
      <AnalyticsWatcher />
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
