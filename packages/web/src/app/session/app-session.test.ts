import { afterEach, describe, expect, it } from 'vitest';
import { createTestAppSession } from './test-session';

describe('app session logout target', () => {
  afterEach(() => {
    window.history.replaceState(null, '', '/');
  });

  it('a token that cannot be renewed ends at /landing even while the unlock screen shows', async () => {
    // A reload passes through /unlock while the stored keys are restored; the refresh token fails then.
    window.history.replaceState(null, '', '/unlock');
    const session = await createTestAppSession({ unlocked: true });
    session.auth.failToken();
    await session.logout();
    expect(session.auth.redirects).toEqual(['end-session /landing']);
    expect(session.encryption.isUnlocked()).toBe(false);
  });

  it('Logout pressed on the unlock screen ends at /login, anywhere else at /landing', async () => {
    const onUnlock = await createTestAppSession();
    await onUnlock.logout({ from: '/unlock' });
    expect(onUnlock.auth.redirects).toEqual(['end-session /login']);
    const onFiles = await createTestAppSession();
    await onFiles.logout({ from: '/myfiles' });
    expect(onFiles.auth.redirects).toEqual(['end-session /landing']);
  });
});
