import { ApiRequestError } from '../../lib/api/http';

/** Said when a file's owner revoked my access or deleted the file (issue 15, point 4). */
export const NO_LONGER_SHARED_TEXT = 'This file is no longer shared with you.';

/**
 * Whether an API failure means the share is gone: the server answers 404 for a share that was
 * revoked or a file that was deleted, the same as for one that never existed, so as not to tell
 * strangers which file ids exist.
 */
export function isShareGone(error: unknown): boolean {
  return error instanceof ApiRequestError && error.status === 404;
}
