/**
 * User-facing texts for failed transfers (spec section 8). The server's error body is
 * `{code, message}`; the code decides the text through the contracts' mapping functions.
 */
import {
  downloadErrorMessage,
  downloadFailedStatusText,
  downloadMessages,
  parseErrorBody,
  uploadErrorMessage,
  uploadFailedStatusText,
  uploadMessages,
} from '@coffer/contracts';
import { IntegrityError } from '@coffer/crypto';
import { ApiRequestError } from '../api/http';
import { TransferError } from './transfer-errors';
import type { TransferKind } from './transfer-types';

/** Ours: what a download that fails authentication says (the crypto error's text is technical). */
export const INTEGRITY_FAILED_TEXT = 'The file is corrupted or was tampered with. Nothing was saved.';

/**
 * A failed upload answer: the code's text; else the response text when it is a short plain
 * message; else 'Upload failed: status statusText'. An HTML error page (a proxy's) is never shown.
 */
export function uploadHttpErrorMessage(status: number, statusText: string, responseText: string): string {
  const body = parseErrorBody(responseText);
  if (body !== null) return uploadErrorMessage(body.code, body.message);
  const text = responseText.trim();
  if (text !== '' && text.length <= 300 && !text.startsWith('<')) return text;
  return uploadFailedStatusText(status, statusText).trimEnd();
}

/** A failed download answer: the code's text, else 'Download failed: status statusText'. */
export function downloadHttpErrorMessage(status: number, statusText: string, responseText: string): string {
  const body = parseErrorBody(responseText);
  if (body !== null) return downloadErrorMessage(body.code);
  return downloadFailedStatusText(status, statusText).trimEnd();
}

/** An ApiRequestError (JSON calls) as a TransferError with the kind's text. */
export function fromApiRequestError(kind: TransferKind, error: ApiRequestError): TransferError {
  const message =
    kind === 'upload'
      ? uploadHttpErrorMessage(error.status, '', error.responseText)
      : downloadErrorMessage(error.code);
  return new TransferError('HTTP', message, { status: error.status, cause: error });
}

/** The text shown for any error that ended a transfer. */
export function transferErrorText(kind: TransferKind, error: unknown): string {
  if (error instanceof TransferError) return error.message;
  if (error instanceof IntegrityError) return INTEGRITY_FAILED_TEXT;
  if (error instanceof ApiRequestError) return fromApiRequestError(kind, error).message;
  return kind === 'upload' ? uploadMessages.defaultError : downloadMessages.defaultError;
}

/** Ours: the download's connection failed (the spec quotes only the upload's equivalent). */
export const DOWNLOAD_NETWORK_ERROR_TEXT = 'Network error during download';
/** Ours: the file key is not encrypted to the user's current key pair. */
export const FILE_KEY_UNDECRYPTABLE_TEXT = 'This file cannot be decrypted with your current encryption key.';
