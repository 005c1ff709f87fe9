import { describe, expect, it } from 'vitest';
import { isLandingReason } from '@coffer/contracts';
import { landingPath, paths } from './paths';

describe('paths', () => {
  it('builds the landing redirect of /share and /invite', () => {
    expect(landingPath('file-share', 'abc')).toBe('/landing?reason=file-share&fileId=abc');
    expect(landingPath('invite-email', 'alice@example.com')).toBe(
      '/landing?reason=invite-email&fileId=alice%40example.com',
    );
    expect(landingPath()).toBe('/landing');
  });

  it('encodes ids in paths', () => {
    expect(paths.share('a/b')).toBe('/share/a%2Fb');
    expect(paths.invite('alice@example.com')).toBe('/invite/alice%40example.com');
  });

  it('knows the landing reasons', () => {
    expect(isLandingReason('email-notification')).toBe(true);
    expect(isLandingReason('nope')).toBe(false);
    expect(isLandingReason(null)).toBe(false);
  });
});
