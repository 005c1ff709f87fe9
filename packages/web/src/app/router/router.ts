import { createBrowserRouter } from 'react-router';
import { appRoutes } from './routes';

export function createAppRouter(): ReturnType<typeof createBrowserRouter> {
  return createBrowserRouter(appRoutes);
}
