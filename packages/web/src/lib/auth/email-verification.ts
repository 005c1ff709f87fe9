import { ErrorCode, type MeResponse } from '@coffer/contracts';
import { ApiRequestError, type ApiClient, type RequestOptions } from '../api/http';

/**
 * Email verification as the web app sees it (issue 12). Until the server counts the caller's address
 * as verified (`GET /users/me`), the account has no keys, cannot be found by contacts and cannot
 * share: /unlock shows the "verify your email" screen instead of the set-up or unlock form.
 */

/** TanStack Query key of `GET /users/me`. */
export const meQueryKey = ['users', 'me'] as const;

/** Texts of the verify-your-email screen (ours: the product spec predates verification). */
export const verifyEmailMessages = {
  title: 'Verify your email',
  /** Followed by the address on a line of its own, then `sentToEnd`. */
  sentTo: 'We sent a confirmation link to',
  sentToEnd:
    'Open it to confirm that the address is yours. Until then, nobody can share files with you and you cannot set up encryption.',
  unknownAddress: 'your email address',
  externalNotConfirmed: 'Your sign-in provider has not confirmed your address yet:',
  externalHint:
    'Your sign-in provider confirms your address, not Coffer. Confirm it with them (look for their confirmation email or your account settings), then come back and press “I’ve confirmed my email”.',
  wrongAddress: 'Wrong address? Log out and create your account again with the right one.',
  resend: 'Resend email',
  confirmed: 'I’ve confirmed my email',
  resendSuccess: (email: string | null) =>
    email === null ? 'We sent you a new confirmation link.' : `We sent a new confirmation link to ${email}.`,
  resendFailed: 'The email could not be sent. Please try again.',
  resendRateLimited: 'You asked for several emails in a short time. Please wait a few minutes and try again.',
  stillUnverified:
    'Your address is not confirmed yet. Open the link in the email we sent, then press “I’ve confirmed my email” again.',
  stillUnverifiedExternal:
    'Your sign-in provider still says the address is not confirmed. Confirm it with them, then try again.',
  checkFailed: 'We could not check your address. Check your connection and try again.',
} as const;

/** The snackbar text for a failed `POST /users/me/verification-email`. */
export function resendErrorMessage(error: unknown): string {
  if (error instanceof ApiRequestError && (error.code === ErrorCode.RATE_LIMITED || error.status === 429)) {
    return verifyEmailMessages.resendRateLimited;
  }
  return verifyEmailMessages.resendFailed;
}

/** True for the API's answer to an unverified caller. */
export function isEmailNotVerified(error: unknown): boolean {
  return error instanceof ApiRequestError && error.code === ErrorCode.EMAIL_NOT_VERIFIED;
}

/** True when /users/me says the verify-your-email screen is due. */
export function needsVerification(me: MeResponse | undefined): boolean {
  return me !== undefined && !me.emailVerified;
}

/** Tells listeners that the API refused a call because the caller's email is not verified. */
export interface EmailVerificationSignal {
  notify(): void;
  subscribe(listener: () => void): () => void;
}

export function createEmailVerificationSignal(): EmailVerificationSignal {
  const listeners = new Set<() => void>();
  return {
    notify() {
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/**
 * The same client, but an EMAIL_NOT_VERIFIED answer to any call also notifies `signal` before the
 * error reaches the caller. Wrapping the client (rather than each screen) covers every call: keys,
 * sharing, invitations, and whatever refuses unverified callers later.
 */
export function watchEmailVerification(api: ApiClient, signal: EmailVerificationSignal): ApiClient {
  const watch = <T>(promise: Promise<T>): Promise<T> =>
    promise.catch((error: unknown) => {
      if (isEmailNotVerified(error)) signal.notify();
      throw error;
    });
  return {
    request: <T>(method: string, path: string, options?: RequestOptions) =>
      watch(api.request<T>(method, path, options)),
    fetchRaw: (method, path, options) => watch(api.fetchRaw(method, path, options)),
    authHeaders: () => api.authHeaders(),
    reportUnauthorized: () => {
      api.reportUnauthorized();
    },
  };
}

/** The outcome of "I've confirmed my email". */
export type ConfirmOutcome =
  /** The renewed token says verified: go on to set up or unlock encryption. */
  | { readonly type: 'verified'; readonly me: MeResponse }
  /** The provider still says unverified (the link was not opened yet). */
  | { readonly type: 'unverified'; readonly me: MeResponse }
  /** The tokens could not be renewed (e.g. signed out everywhere by a password reset): logging out. */
  | { readonly type: 'signed-out' }
  /** /users/me could not be read. */
  | { readonly type: 'failed'; readonly error: unknown };

/**
 * After the person says they confirmed their address: renew the tokens first (the server reads
 * `email_verified` from the access token, and the current one was issued before the confirmation),
 * then ask the server again.
 */
export async function confirmVerification(deps: {
  renewTokens: () => Promise<boolean>;
  fetchMe: () => Promise<MeResponse>;
}): Promise<ConfirmOutcome> {
  if (!(await deps.renewTokens())) return { type: 'signed-out' };
  let me: MeResponse;
  try {
    me = await deps.fetchMe();
  } catch (error) {
    return { type: 'failed', error };
  }
  return me.emailVerified ? { type: 'verified', me } : { type: 'unverified', me };
}
