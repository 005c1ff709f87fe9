import { describe, expect, it } from 'vitest';
import {
  accessRevokedFromText,
  accessRevokedText,
  apiRequestFailedText,
  decryptingChunkText,
  downloadFailedSnackbarText,
  downloadFailedStatusText,
  downloadsCancelledText,
  encryptingChunkText,
  feedbackCounterText,
  feedbackMessages,
  fileNotFoundText,
  navigationMessages,
  noEtagText,
  queuedText,
  revokeFailedText,
  shareFailedSnackbarText,
  sharedSuccessText,
  unverifiedContactText,
  uploadFailedStatusText,
  uploadsCancelledText,
} from './messages.js';

describe('parameterised messages', () => {
  it('fill in their values', () => {
    expect(queuedText(2, 5)).toBe('Queued (2 of 5)');
    expect(encryptingChunkText(1, 3)).toBe('Encrypting chunk 1 of 3...');
    expect(decryptingChunkText(3, 3)).toBe('Decrypting chunk 3 of 3...');
    expect(uploadsCancelledText(4)).toBe('4 uploads cancelled');
    expect(downloadsCancelledText(2)).toBe('2 downloads cancelled');
    expect(fileNotFoundText('abc')).toBe('File with ID abc not found');
    expect(noEtagText(7)).toBe('No ETag received for part 7');
    expect(downloadFailedStatusText(404, 'Not Found')).toBe('Download failed: 404 Not Found');
    expect(uploadFailedStatusText(500, 'Internal Server Error')).toBe(
      'Upload failed: 500 Internal Server Error',
    );
    expect(apiRequestFailedText('{"code":"X"}')).toBe('API request failed: {"code":"X"}');
    expect(sharedSuccessText('a.pdf', 'Ada')).toBe('a.pdf shared successfully with Ada');
    expect(accessRevokedText('Ada')).toBe('Access revoked for Ada');
    expect(accessRevokedFromText('Ada')).toBe('Access revoked successfully from Ada');
    expect(revokeFailedText('a.pdf')).toBe('Failed to revoke access for a.pdf');
    expect(unverifiedContactText('Ada')).toBe('Cannot share with unverified contact: Ada');
    expect(feedbackCounterText(12)).toBe('12/2000');
  });

  it('fall back when a message is missing', () => {
    expect(downloadFailedSnackbarText('boom')).toBe('Download failed: boom');
    expect(downloadFailedSnackbarText()).toBe('Download failed: Unknown error');
    expect(downloadFailedSnackbarText('')).toBe('Download failed: Unknown error');
    expect(shareFailedSnackbarText()).toBe('Failed to share file');
    expect(shareFailedSnackbarText('nope')).toBe('nope');
  });

  it('keep the spec wording', () => {
    expect(navigationMessages.leaveConfirm).toBe(
      'You have file operations in progress. Are you sure you want to leave? This may cancel your upload or download.',
    );
    expect(feedbackMessages.tooLong).toBe('Feedback exceeds maximum length of 2000 characters');
  });
});
