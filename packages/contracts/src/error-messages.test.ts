import { describe, expect, it } from 'vitest';
import { ErrorCode, errorCodes, errorHttpStatus, isErrorCode, parseErrorBody } from './error-codes.js';
import {
  downloadErrorMessage,
  shareErrorMessage,
  shareOperationErrorMessage,
  uploadErrorMessage,
} from './error-messages.js';

describe('uploadErrorMessage', () => {
  it('maps the codes of section 8', () => {
    expect(uploadErrorMessage('UPLOAD_FAILED', 'Monthly upload limit reached')).toBe(
      'You have reached your monthly upload limit. Please try again next month or upgrade your plan.',
    );
    expect(uploadErrorMessage('UPLOAD_FAILED', 'disk on fire')).toBe(
      'Failed to upload file. Please try again.',
    );
    expect(uploadErrorMessage('UPLOAD_FAILED')).toBe('Failed to upload file. Please try again.');
    expect(uploadErrorMessage('QUOTA_EXCEEDED', 'x')).toBe(
      'Storage quota exceeded. Please free up some space or upgrade your plan.',
    );
    expect(uploadErrorMessage('UNAUTHORIZED')).toBe('Your session has expired. Please log in again.');
  });

  it('defaults to the server message, then the generic text', () => {
    expect(uploadErrorMessage('VALIDATION_FAILED', 'name is too long')).toBe('name is too long');
    expect(uploadErrorMessage(undefined, '')).toBe('Error uploading file!');
    expect(uploadErrorMessage(null)).toBe('Error uploading file!');
  });
});

describe('downloadErrorMessage', () => {
  it('maps the codes of section 8', () => {
    expect(downloadErrorMessage('DOWNLOAD_FAILED')).toBe('Failed to download file. Please try again.');
    expect(downloadErrorMessage('FILE_NOT_FOUND')).toBe(
      'The file you are trying to download no longer exists.',
    );
    expect(downloadErrorMessage('UNAUTHORIZED')).toBe('You do not have permission to download this file.');
    expect(downloadErrorMessage('SHARE_FAILED')).toBe('Error downloading file!');
    expect(downloadErrorMessage(undefined)).toBe('Error downloading file!');
  });
});

describe('shareErrorMessage', () => {
  it('maps the codes of section 8', () => {
    expect(shareErrorMessage('SHARE_FAILED')).toBe('Failed to share file. Please try again.');
    expect(shareErrorMessage('FILE_NOT_FOUND')).toBe('The file you are trying to share no longer exists.');
    expect(shareErrorMessage('UNAUTHORIZED')).toBe('You do not have permission to share this file.');
    expect(shareErrorMessage('INVALID_OPERATION')).toBe(
      'Cannot share this file. It may have been deleted or your permissions may have changed.',
    );
    expect(shareErrorMessage('ALREADY_SHARED')).toBe('Error sharing file!');
  });
});

describe('shareOperationErrorMessage', () => {
  it('maps the codes of section 8', () => {
    expect(shareOperationErrorMessage('FILE_NOT_FOUND')).toBe(
      'The file no longer exists or has been deleted.',
    );
    expect(shareOperationErrorMessage('UNAUTHORIZED')).toBe(
      'You do not have permission to perform this action.',
    );
    expect(shareOperationErrorMessage('SHARE_LIMIT_REACHED')).toBe(
      'You have reached the maximum number of shares for this file.',
    );
    expect(shareOperationErrorMessage('INVALID_RECIPIENT')).toBe(
      'One or more recipients are invalid or cannot receive shares.',
    );
    expect(shareOperationErrorMessage('ALREADY_SHARED')).toBe(
      'This file is already shared with one or more of the selected contacts.',
    );
    expect(shareOperationErrorMessage('SHARE_FAILED')).toBe(
      'An error occurred while performing the operation.',
    );
  });
});

describe('error codes', () => {
  it('hold the catalogue, the five generic codes (EMAIL_NOT_VERIFIED among them), CONTACT_IS_SELF and KEY_SET_CHANGED, each with a status', () => {
    expect(errorCodes).toHaveLength(21);
    expect(errorHttpStatus.LINK_UNAVAILABLE).toBe(404);
    expect(errorHttpStatus.LINK_AUTH_FAILED).toBe(401);
    expect(errorHttpStatus.KEY_SET_CHANGED).toBe(409);
    expect(errorHttpStatus.EMAIL_NOT_VERIFIED).toBe(403);
    expect(errorHttpStatus.CONTACT_IS_SELF).toBe(400);
    expect(Object.keys(errorHttpStatus).sort()).toEqual([...errorCodes].sort());
    expect(isErrorCode(ErrorCode.KEYS_NOT_FOUND)).toBe(true);
    expect(isErrorCode('NOPE')).toBe(false);
  });

  it('parse the code back out of a client error text', () => {
    expect(parseErrorBody('API request failed: {"code":"QUOTA_EXCEEDED","message":"full"}')).toEqual({
      code: 'QUOTA_EXCEEDED',
      message: 'full',
    });
    expect(parseErrorBody('{"code":"X"}')).toEqual({ code: 'X', message: '' });
    expect(parseErrorBody('API request failed: Bad Gateway')).toBeNull();
    expect(parseErrorBody('{not json}')).toBeNull();
    expect(parseErrorBody('{"message":"no code"}')).toBeNull();
  });
});
