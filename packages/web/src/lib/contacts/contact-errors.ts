import { contactsMessages, ErrorCode } from '@coffer/contracts';
import { ApiRequestError } from '../api/http';

/** The danger snackbar for a failed add (spec section 8), by the server's error code. */
export function addContactErrorMessage(error: unknown): string {
  const code = error instanceof ApiRequestError ? error.code : null;
  if (code === ErrorCode.CONTACT_ALREADY_EXISTS) return contactsMessages.alreadyExists;
  if (code === ErrorCode.CONTACT_IS_SELF) return contactsMessages.isSelf;
  // The server's contact-limit answer; the spec's text for it.
  if (code === ErrorCode.QUOTA_EXCEEDED) return contactsMessages.limitReached;
  return contactsMessages.addFailed;
}

/** True for a 403 answer: the caller may not see this (e.g. the admin feedback list). */
export function isForbidden(error: unknown): boolean {
  return error instanceof ApiRequestError && (error.status === 403 || error.code === ErrorCode.FORBIDDEN);
}

/**
 * Query retry policy for these screens: a 4xx answer is final (a missing key or a refused admin
 * call will not change on retry); anything else is retried once, like the app's default.
 */
export function retryUnlessClientError(failureCount: number, error: Error): boolean {
  if (error instanceof ApiRequestError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}
