import type { ReactElement } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { LandingPage } from '../../features/landing/LandingPage';
import { NotFoundPage } from '../../features/not-found/NotFoundPage';
import { AppLayout } from '../layout/AppLayout';
import { PageLoader } from '../layout/PageLoader';
import { ShellVisibleProvider } from '../session/shell-visibility';
import { RequireAccount, RequireAuth } from './guards';
import { lazyPage } from './lazy-page';
import { paths } from './paths';
import { RootRoute } from './RootRoute';
import { RouteErrorBoundary } from './RouteErrorBoundary';

/**
 * The app layout with the sidebar and top bar forced on, so the placeholder screens show the
 * layout before a session exists.
 * Extension point: once the session is wired, replace this with plain `AppLayout`, which shows
 * the shell when the user is signed in and encryption is ready (`useShellVisible`).
 */
function SignedInLayout(): ReactElement {
  return (
    <ShellVisibleProvider visible>
      <AppLayout />
    </ShellVisibleProvider>
  );
}

/**
 * The spec's route table (section 2). Screens load lazily (with the 120 s chunk time-out), except
 * the landing and not-found pages, which a visitor must always get at once.
 */
export const appRoutes: RouteObject[] = [
  {
    id: 'root',
    path: paths.root,
    Component: RootRoute,
    HydrateFallback: PageLoader,
    errorElement: <RouteErrorBoundary />,
    children: [
      // Public.
      { path: paths.landing, Component: LandingPage },
      {
        path: paths.login,
        lazy: lazyPage(() => import('../../features/landing/LoginPage').then((m) => m.LoginPage)),
      },

      // Auth required. The guard (and later its loader) sits on this wrapper route.
      {
        id: 'auth',
        Component: RequireAuth,
        children: [
          { index: true, element: <Navigate to={paths.newUpload} replace /> },
          {
            // No sidebar or top bar until encryption is ready.
            Component: AppLayout,
            children: [
              {
                path: paths.unlock,
                lazy: lazyPage(() => import('../../features/unlock/UnlockPage').then((m) => m.UnlockPage)),
              },
            ],
          },
          {
            Component: SignedInLayout,
            children: [
              {
                path: paths.newUpload,
                lazy: lazyPage(() =>
                  import('../../features/upload/NewUploadPage').then((m) => m.NewUploadPage),
                ),
              },
              {
                path: paths.myFiles,
                lazy: lazyPage(() => import('../../features/files/MyFilesPage').then((m) => m.MyFilesPage)),
              },
              {
                path: paths.sharedWithMe,
                lazy: lazyPage(() =>
                  import('../../features/shared/SharedWithMePage').then((m) => m.SharedWithMePage),
                ),
              },
              {
                path: paths.contacts,
                lazy: lazyPage(() =>
                  import('../../features/contacts/ContactsPage').then((m) => m.ContactsPage),
                ),
              },
              {
                path: paths.profile,
                lazy: lazyPage(() => import('../../features/profile/ProfilePage').then((m) => m.ProfilePage)),
              },
              {
                path: paths.feedback,
                lazy: lazyPage(() =>
                  import('../../features/feedback/FeedbackPage').then((m) => m.FeedbackPage),
                ),
              },
            ],
          },
        ],
      },

      // Signed-in account required; without one: /landing?reason=…&fileId={id}.
      {
        element: <RequireAccount reason="file-share" />,
        children: [
          {
            Component: SignedInLayout,
            children: [
              {
                path: '/share/:id',
                lazy: lazyPage(() =>
                  import('../../features/share/FilesReceivedPage').then((m) => m.FilesReceivedPage),
                ),
              },
            ],
          },
        ],
      },
      {
        element: <RequireAccount reason="invite-email" />,
        children: [
          {
            Component: SignedInLayout,
            children: [
              {
                path: '/invite/:id',
                lazy: lazyPage(() => import('../../features/invite/InvitePage').then((m) => m.InvitePage)),
              },
            ],
          },
        ],
      },

      { path: '*', Component: NotFoundPage },
    ],
  },
];
