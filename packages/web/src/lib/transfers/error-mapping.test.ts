import { downloadMessages, uploadMessages } from '@coffer/contracts';
import { IntegrityError } from '@coffer/crypto';
import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../api/http';
import {
  INTEGRITY_FAILED_TEXT,
  downloadHttpErrorMessage,
  transferErrorText,
  uploadHttpErrorMessage,
} from './error-mapping';
import { TransferError } from './transfer-errors';

describe('error mapping', () => {
  it('maps upload answers (spec section 8)', () => {
    expect(uploadHttpErrorMessage(413, 'Payload Too Large', '{"code":"QUOTA_EXCEEDED","message":"x"}')).toBe(
      uploadMessages.quotaExceeded,
    );
    expect(uploadHttpErrorMessage(500, 'Internal Server Error', '')).toBe(
      'Upload failed: 500 Internal Server Error',
    );
    expect(uploadHttpErrorMessage(500, '', '')).toBe('Upload failed: 500');
    expect(uploadHttpErrorMessage(503, 'x', 'Service is down')).toBe('Service is down');
  });

  it('maps download answers (spec section 8)', () => {
    expect(downloadHttpErrorMessage(404, 'Not Found', '{"code":"FILE_NOT_FOUND","message":"x"}')).toBe(
      downloadMessages.fileGone,
    );
    expect(downloadHttpErrorMessage(403, 'Forbidden', '{"code":"UNAUTHORIZED","message":"x"}')).toBe(
      downloadMessages.noPermission,
    );
    expect(downloadHttpErrorMessage(400, 'Bad Request', '{"code":"SOMETHING","message":"x"}')).toBe(
      downloadMessages.defaultError,
    );
    expect(downloadHttpErrorMessage(502, 'Bad Gateway', '<html>')).toBe('Download failed: 502 Bad Gateway');
  });

  it('names every error that ends a transfer', () => {
    expect(transferErrorText('upload', new TransferError('NO_ETAG', 'No ETag received for part 3'))).toBe(
      'No ETag received for part 3',
    );
    expect(transferErrorText('download', new IntegrityError())).toBe(INTEGRITY_FAILED_TEXT);
    expect(
      transferErrorText('download', new ApiRequestError(404, '{"code":"FILE_NOT_FOUND","message":"x"}')),
    ).toBe(downloadMessages.fileGone);
    expect(transferErrorText('upload', new Error('boom'))).toBe(uploadMessages.defaultError);
    expect(transferErrorText('download', 'what')).toBe(downloadMessages.defaultError);
  });
});
