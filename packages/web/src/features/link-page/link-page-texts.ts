import type { LinkFailure } from '../../lib/links/link-open';

/** The link and request pages' refusals: a title and a sentence, never an error dump. */
export const linkFailureTexts: Record<LinkFailure, { title: string; reason: string }> = {
  unavailable: {
    title: 'This link is no longer available',
    reason:
      'It may have expired, reached its download limit, or been revoked by the person who shared it. Ask them for a new link.',
  },
  tampered: {
    title: 'This link is damaged',
    reason:
      'Part of the link is missing or altered, or what the server sent does not open with it. Copy the whole link again, or ask the sender for a new one.',
  },
  'wrong-password': {
    title: 'Wrong password',
    reason: 'The password does not open this link.',
  },
  'rate-limited': {
    title: 'Too many attempts',
    reason: 'This link was tried too often. Wait a few minutes, then try again.',
  },
  'key-mismatch': {
    title: 'The recipient’s key does not match this link',
    reason:
      'The server offered a different encryption key than the one this link was made for, so nothing was sent. Tell the person who gave you the link.',
  },
  'signer-mismatch': {
    title: 'The sender’s signature does not match this link',
    reason:
      'The server sent a signing key other than the one this link was made with, so Coffer cannot tell who these files are from. Nothing was opened. Tell the person who sent you the link.',
  },
  failed: {
    title: 'This link could not be opened',
    reason: 'Coffer could not reach the server. Check your connection and try again.',
  },
};
