/** Web app routes (spec section 2), shared so guards, links and e2e tests agree. */
import type { LandingReason } from './constants.js';

export const appPaths = {
  root: '/',
  landing: '/landing',
  login: '/login',
  unlock: '/unlock',
  newUpload: '/new',
  myFiles: '/myfiles',
  sharedWithMe: '/sharedwithme',
  contacts: '/contacts',
  profile: '/profile',
  feedback: '/feedback',
  share: '/share/:id',
  invite: '/invite/:id',
} as const;

/** Where the app goes after unlock when no path was remembered. */
export const DEFAULT_AFTER_UNLOCK_PATH = appPaths.newUpload;

/** Paths never remembered for the redirect after unlock. */
export const notRememberedPaths: readonly string[] = [appPaths.unlock, appPaths.landing];

/** '/landing?reason=…&fileId=…' for guards that send visitors to the landing page. */
export function landingPath(reason: LandingReason, fileId?: string): string {
  const query = `reason=${encodeURIComponent(reason)}`;
  return fileId === undefined
    ? `${appPaths.landing}?${query}`
    : `${appPaths.landing}?${query}&fileId=${encodeURIComponent(fileId)}`;
}
