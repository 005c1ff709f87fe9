import { useState, type ReactElement } from 'react';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './AppProviders';
import { createAppRouter } from './router/router';

export function App(): ReactElement {
  const [router] = useState(createAppRouter);
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
