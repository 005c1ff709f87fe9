/** The spec's route table (section 2). */
export const paths = {
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
  /** The built-in footer pages (not in the spec's table; replaceable by VITE_*_URL). */
  terms: '/terms',
  privacy: '/privacy',
  faq: '/faq',
  about: '/about',
  share: (id: string): string => `/share/${encodeURIComponent(id)}`,
  invite: (id: string): string => `/invite/${encodeURIComponent(id)}`,
} as const;

/** The reasons the landing page understands in its `reason` query parameter. */
export const LANDING_REASONS = ['file-share', 'email-notification', 'invite-email', 'other'] as const;
export type LandingReason = (typeof LANDING_REASONS)[number];

export function isLandingReason(value: string | null | undefined): value is LandingReason {
  return LANDING_REASONS.some((reason) => reason === value);
}

/**
 * Where /share/{id} and /invite/{id} send a visitor with no account:
 * /landing?reason=file-share|invite-email&fileId={id}.
 */
export function landingPath(reason?: LandingReason, fileId?: string): string {
  const query = new URLSearchParams();
  if (reason !== undefined) query.set('reason', reason);
  if (fileId !== undefined && fileId !== '') query.set('fileId', fileId);
  const search = query.toString();
  return search === '' ? paths.landing : `${paths.landing}?${search}`;
}
