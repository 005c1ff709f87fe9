import { appPaths, landingPath as landingPathWithReason, type LandingReason } from '@coffer/contracts';

/** A route pattern's `:id` filled in, encoded so an id never reads as a path segment. */
function withId(pattern: string): (id: string) => string {
  return (id) => pattern.replace(':id', () => encodeURIComponent(id));
}

const { share, invite, ...screens } = appPaths;

/** The spec's route table (section 2, `appPaths` of `@coffer/contracts`) as links to follow. */
export const paths = {
  ...screens,
  /** The built-in footer pages (not in the spec's table; replaceable by VITE_*_URL). */
  terms: '/terms',
  privacy: '/privacy',
  faq: '/faq',
  about: '/about',
  share: withId(share),
  invite: withId(invite),
  /** Links and file requests (issue 30): outside the spec's table. The pages are public. */
  links: '/links',
  linkPattern: '/l/:id',
  requestPattern: '/r/:id',
  /** A link's page; the secret goes in the fragment, which the caller appends. */
  link: withId('/l/:id'),
  fileRequest: withId('/r/:id'),
} as const;

/**
 * Where /share/{id} and /invite/{id} send a visitor with no account:
 * /landing?reason=file-share|invite-email&fileId={id}.
 */
export function landingPath(reason?: LandingReason, fileId?: string): string {
  if (reason === undefined) return paths.landing;
  return landingPathWithReason(reason, fileId === '' ? undefined : fileId);
}
