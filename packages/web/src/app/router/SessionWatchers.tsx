import { lazy, Suspense, useEffect, useRef, useState, type ReactElement } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useBlocker, useLocation, useNavigate } from 'react-router';
import { usersApi } from '../../lib/api/endpoints';
import { meQueryKey } from '../../lib/auth/email-verification';
import { snackbar } from '../../lib/snackbar';
import { takeFlashMessage } from '../../lib/storage/flash-message';
import type { LeaveDialog } from './LeaveDialog';
import { useAppSession, useOperationsActive } from '../../session/session-context';
import { shouldRedirectToUnlock } from '../../lib/navigation/navigation-rules';
import { paths } from '../../lib/navigation/paths';

/** Spec: "Whenever encryption stops being ready while the user is not on /unlock or /landing, the app redirects to /unlock." */
function EncryptionWatcher(): null {
  const session = useAppSession();
  const { encryption } = session;
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const pathnameRef = useRef(pathname);
  pathnameRef.current = pathname;

  useEffect(() => {
    let wasUnlocked = encryption.isUnlocked();
    return encryption.subscribe(() => {
      const isUnlocked = encryption.isUnlocked();
      const redirectNow = shouldRedirectToUnlock({
        wasUnlocked,
        isUnlocked,
        pathname: pathnameRef.current,
        loggingOut: session.isLoggingOut(),
      });
      wasUnlocked = isUnlocked;
      if (redirectNow) void navigate(paths.unlock, { replace: true });
    });
  }, [session, encryption, navigate]);
  return null;
}

/**
 * An EMAIL_NOT_VERIFIED answer to any call: ask /users/me (the answer might concern someone else's
 * address, or an old token). If the caller is indeed unverified, drop the unlocked keys and go to
 * /unlock, which shows "Verify your email" instead of the unlock form.
 */
function EmailVerificationWatcher(): null {
  const session = useAppSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const pathnameRef = useRef(pathname);
  pathnameRef.current = pathname;

  useEffect(() => {
    let checking = false;
    return session.emailVerification.subscribe(() => {
      if (checking || session.isLoggingOut()) return;
      checking = true;
      void (async () => {
        try {
          const me = await queryClient.query({
            queryKey: meQueryKey,
            queryFn: () => usersApi.me(session.api),
            staleTime: 0,
          });
          if (me.emailVerified || session.isLoggingOut()) return;
          const wasUnlocked = session.encryption.isUnlocked();
          // The encryption watcher sends an unlocked user to /unlock; otherwise go there here.
          await session.encryption.clear();
          if (!wasUnlocked && pathnameRef.current !== paths.unlock) {
            await navigate(paths.unlock, { replace: true });
          }
        } catch (error) {
          console.warn('Checking the email verification failed', error);
        } finally {
          checking = false;
        }
      })();
    });
  }, [session, queryClient, navigate]);
  return null;
}

const loadLeaveDialog = (): Promise<{ default: typeof LeaveDialog }> =>
  import('./LeaveDialog').then((m) => ({ default: m.LeaveDialog }));
const LazyLeaveDialog = lazy(loadLeaveDialog);

/**
 * Spec: with file operations in progress, a path change asks for confirmation ('You have file
 * operations in progress…'); confirming aborts uploads and downloads (waiting 200 ms and 300 ms),
 * declining cancels the navigation. Leaving the page gets the browser's leave warning.
 */
function LeaveGuard(): ReactElement | null {
  const { operations } = useAppSession();
  const active = useOperationsActive();
  const [aborting, setAborting] = useState(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => active && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!active) return undefined;
    // The dialog's code arrives while the files move, before anyone tries to leave.
    void loadLeaveDialog().catch(() => undefined);
    const warn = (event: BeforeUnloadEvent): void => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => {
      window.removeEventListener('beforeunload', warn);
    };
  }, [active]);

  if (blocker.state !== 'blocked') return null;
  const confirm = async (): Promise<void> => {
    setAborting(true);
    try {
      await operations.abortForNavigation();
    } finally {
      setAborting(false);
      blocker.proceed();
    }
  };
  return (
    <Suspense fallback={null}>
      <LazyLeaveDialog aborting={aborting} onStay={blocker.reset} onLeave={() => void confirm()} />
    </Suspense>
  );
}

/** A snackbar that a page left for the next page load (e.g. the reset message before the reload). */
function FlashMessage(): null {
  useEffect(() => {
    const flash = takeFlashMessage();
    if (flash !== null) snackbar[flash.color](flash.message);
  }, []);
  return null;
}

/** Session-wide behaviour that needs the router: mounted once in the root route. */
export function SessionWatchers(): ReactElement {
  return (
    <>
      <EncryptionWatcher />
      <EmailVerificationWatcher />
      <LeaveGuard />
      <FlashMessage />
    </>
  );
}
