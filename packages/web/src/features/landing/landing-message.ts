import { isLandingReason } from '@coffer/contracts';

export type LandingMessageKind =
  'invite' | 'file-share' | 'notification' | 'session-ended' | 'transfers-cancelled';

/** The sentence the landing page leads with, fitting why the visitor came. */
export interface LandingMessage {
  readonly kind: LandingMessageKind;
  readonly title: string;
  readonly body: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_EMAIL_LENGTH = 254;

/**
 * `fileId` comes from a link anyone can craft, so only a well-formed email address is shown as
 * the inviter; anything else would let a stranger put their own words on this page.
 */
function inviterEmail(fileId: string | null): string | undefined {
  const candidate = fileId?.trim();
  if (candidate === undefined || candidate.length > MAX_EMAIL_LENGTH || !EMAIL.test(candidate))
    return undefined;
  return candidate;
}

/**
 * The message for the landing page's `reason` and `fileId` query parameters
 * (spec: reason is file-share, email-notification, invite-email or other; for invite-email,
 * fileId carries the inviter's email). `null`: no particular reason, the generic page.
 */
export function landingMessage(reason: string | null, fileId: string | null): LandingMessage | null {
  if (!isLandingReason(reason)) return null;
  switch (reason) {
    case 'invite-email': {
      const email = inviterEmail(fileId);
      return {
        kind: 'invite',
        title:
          email === undefined
            ? 'You have been invited to exchange end-to-end encrypted files'
            : `${email} invited you to exchange end-to-end encrypted files`,
        body: 'Create an account to accept the invitation, or log in if you already have one.',
      };
    }
    case 'file-share':
      return {
        kind: 'file-share',
        title: 'Someone shared a file with you',
        body: 'The file is end-to-end encrypted. Log in or create an account to open it.',
      };
    case 'email-notification':
      return {
        kind: 'notification',
        title: 'You have something new in Coffer',
        body: 'Log in to see what is waiting for you.',
      };
    case 'other':
      return null;
  }
}

/** After a session ended without the person logging out (issue 15, point 6). */
export const sessionEndedMessage: LandingMessage = {
  kind: 'session-ended',
  title: 'Your session ended. Log in again.',
  body: 'Your login could not be renewed, so Coffer signed you out. After logging in you return to where you were.',
};

/**
 * After a logout that cancelled transfers (issue 15, point 13). `stored`: the kept flag, a JSON list
 * of the spec's cancellation lines ('2 uploads cancelled'); anything else says nothing.
 */
export function transfersCancelledMessage(stored: string | null): LandingMessage | null {
  let lines: unknown;
  try {
    lines = stored === null ? null : JSON.parse(stored);
  } catch {
    return null;
  }
  if (!Array.isArray(lines)) return null;
  const said = lines.filter((line): line is string => typeof line === 'string' && line !== '');
  if (said.length === 0) return null;
  return {
    kind: 'transfers-cancelled',
    title: 'Logging out cancelled transfers in progress',
    body: `${said.join('. ')}. Start them again after you log in.`,
  };
}
