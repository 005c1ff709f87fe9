import { describe, expect, it } from 'vitest';
import { landingMessage } from './landing-message';

describe('landingMessage', () => {
  it('is null without a known reason', () => {
    expect(landingMessage(null, null)).toBeNull();
    expect(landingMessage('other', 'x')).toBeNull();
    expect(landingMessage('bogus', 'x')).toBeNull();
  });

  it('names only a well-formed inviter email', () => {
    expect(landingMessage('invite-email', ' bob@example.org ')?.title).toBe(
      'bob@example.org invited you to exchange end-to-end encrypted files',
    );
    for (const fileId of [null, '', 'not an email', 'a@b', `${'x'.repeat(250)}@example.com`]) {
      expect(landingMessage('invite-email', fileId)?.title).toBe(
        'You have been invited to exchange end-to-end encrypted files',
      );
    }
  });

  it('has a message for file-share and email-notification', () => {
    expect(landingMessage('file-share', 'f1')?.kind).toBe('file-share');
    expect(landingMessage('email-notification', null)?.kind).toBe('notification');
  });
});
