import type { ReactElement } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { LandingPage } from '../../features/landing/LandingPage';
import { NotFoundPage } from '../../features/not-found/NotFoundPage';
import { PageLoader } from '../layout/PageLoader';
import { ShellVisibleProvider } from '../layout/shell-visibility';
import { RequireAccount, RequireAuth } from './guards';
import { lazyPage, withTimeout } from './lazy-page';
import { alwaysRevalidate, guardLoader } from './loaders';
import { paths } from '../../lib/navigation/paths';
import { RootRoute } from './RootRoute';
import { RouteErrorBoundary } from './RouteErrorBoundary';

/** The signed-in layout (top bar, sidebar) loads with the first screen that needs it, not on /landing. */
const appLayout = lazyPage(() => import('../layout/AppLayout').then((m) => m.AppLayout));

/** The same layout with the top bar and sidebar hidden (the unlock screen). */
async function hiddenShellLayout(): Promise<{ element: ReactElement }> {
  const AppLayout = await withTimeout(() => import('../layout/AppLayout').then((m) => m.AppLayout));
  return {
    element: (
      <ShellVisibleProvider visible={false}>
        <AppLayout />
      </ShellVisibleProvider>
    ),
  };
}

/**
 * The spec's route table (section 2). Screens load lazily (with the 120 s chunk time-out), except
 * the landing and not-found pages, which a visitor must always get at once. The guard routes carry
 * the navigation rules as loaders; they run before any screen of theirs renders.
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
      // Links and file requests (issue 30): no sign-in, outside the spec's guarded routes.
      {
        path: paths.linkPattern,
        lazy: lazyPage(() => import('../../features/link-page/LinkPage').then((m) => m.LinkPage)),
      },
      {
        path: paths.requestPattern,
        lazy: lazyPage(() => import('../../features/requests/RequestPage').then((m) => m.RequestPage)),
      },

      // The unlock screen: also where the identity provider sends the browser back. No sidebar or
      // top bar: they show only once encryption is ready.
      {
        id: 'unlock',
        loader: guardLoader('unlock'),
        shouldRevalidate: alwaysRevalidate,
        // Hidden even for the moment between unlocking and moving on.
        lazy: hiddenShellLayout,
        children: [
          {
            path: paths.unlock,
            lazy: lazyPage(() => import('../../features/unlock/UnlockPage').then((m) => m.UnlockPage)),
          },
        ],
      },

      // Auth required: signed in and encryption unlocked (navigation rules in `loaders.ts`).
      {
        id: 'auth',
        loader: guardLoader('auth'),
        shouldRevalidate: alwaysRevalidate,
        Component: RequireAuth,
        children: [
          { index: true, element: <Navigate to={paths.newUpload} replace /> },
          {
            lazy: appLayout,
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
                path: paths.links,
                lazy: lazyPage(() => import('../../features/links/LinksPage').then((m) => m.LinksPage)),
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
        id: 'share',
        loader: guardLoader('file-share'),
        shouldRevalidate: alwaysRevalidate,
        element: <RequireAccount reason="file-share" />,
        children: [
          {
            lazy: appLayout,
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
        id: 'invite',
        loader: guardLoader('invite-email'),
        shouldRevalidate: alwaysRevalidate,
        element: <RequireAccount reason="invite-email" />,
        children: [
          {
            lazy: appLayout,
            children: [
              {
                path: '/invite/:id',
                lazy: lazyPage(() => import('../../features/invite/InvitePage').then((m) => m.InvitePage)),
              },
            ],
          },
        ],
      },

      // The built-in footer pages, public, in one small chunk.
      ...(['terms', 'privacy', 'faq', 'about'] as const).map((page) => ({
        path: paths[page],
        lazy: lazyPage(() => import('../../features/info/InfoPage').then((m) => m.infoPageComponents[page])),
      })),

      { path: '*', Component: NotFoundPage },
    ],
  },
];
