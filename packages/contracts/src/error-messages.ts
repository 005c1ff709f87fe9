/**
 * Error code → user message rules of spec section 8. `code` is whatever was parsed from
 * the error body (possibly unknown or missing), so these take plain strings.
 */
import { ErrorCode, MONTHLY_UPLOAD_LIMIT_SERVER_MESSAGE } from './error-codes.js';
import { downloadMessages, shareMessages, shareOperationMessages, uploadMessages } from './messages.js';

type MaybeCode = string | null | undefined;

/** Upload: the monthly-limit text only when the server message says so; default is the server's message. */
export function uploadErrorMessage(code: MaybeCode, serverMessage?: string | null): string {
  switch (code ?? '') {
    case ErrorCode.UPLOAD_FAILED:
      return serverMessage === MONTHLY_UPLOAD_LIMIT_SERVER_MESSAGE
        ? uploadMessages.monthlyLimit
        : uploadMessages.failed;
    case ErrorCode.QUOTA_EXCEEDED:
      return uploadMessages.quotaExceeded;
    case ErrorCode.UNAUTHORIZED:
      return uploadMessages.sessionExpired;
    default:
      return serverMessage !== undefined && serverMessage !== null && serverMessage !== ''
        ? serverMessage
        : uploadMessages.defaultError;
  }
}

export function downloadErrorMessage(code: MaybeCode): string {
  switch (code ?? '') {
    case ErrorCode.DOWNLOAD_FAILED:
      return downloadMessages.failed;
    case ErrorCode.FILE_NOT_FOUND:
      return downloadMessages.fileGone;
    case ErrorCode.UNAUTHORIZED:
      return downloadMessages.noPermission;
    default:
      return downloadMessages.defaultError;
  }
}

/** Sharing one file with one contact. */
export function shareErrorMessage(code: MaybeCode): string {
  switch (code ?? '') {
    case ErrorCode.SHARE_FAILED:
      return shareMessages.shareFailedRetry;
    case ErrorCode.FILE_NOT_FOUND:
      return shareMessages.fileGone;
    case ErrorCode.UNAUTHORIZED:
      return shareMessages.noPermission;
    case ErrorCode.INVALID_OPERATION:
      return shareMessages.invalidOperation;
    default:
      return shareMessages.defaultError;
  }
}

/** Sharing with several recipients, or revoking. */
export function shareOperationErrorMessage(code: MaybeCode): string {
  switch (code ?? '') {
    case ErrorCode.FILE_NOT_FOUND:
      return shareOperationMessages.fileGone;
    case ErrorCode.UNAUTHORIZED:
      return shareOperationMessages.noPermission;
    case ErrorCode.SHARE_LIMIT_REACHED:
      return shareOperationMessages.limitReached;
    case ErrorCode.INVALID_RECIPIENT:
      return shareOperationMessages.invalidRecipient;
    case ErrorCode.ALREADY_SHARED:
      return shareOperationMessages.alreadyShared;
    default:
      return shareOperationMessages.defaultError;
  }
}
