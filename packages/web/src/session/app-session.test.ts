import { afterEach, describe, expect, it } from 'vitest';
import {
  SESSION_ENDED_FLAG,
  TRANSFERS_CANCELLED_FLAG,
  sessionStorageKeys,
} from '../lib/storage/session-flags';
import { createTestAppSession } from './testing/test-session';

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

  it('a token that cannot be renewed keeps the remembered path and marks the session as ended', async () => {
    const session = await createTestAppSession({ unlocked: true });
    session.flags.set(sessionStorageKeys.redirectAfterUnlock, '/contacts');
    session.auth.failToken();
    await session.logout();
    expect(session.auth.redirects).toEqual(['end-session /landing']);
    expect(session.flags.get(sessionStorageKeys.redirectAfterUnlock)).toBe('/contacts');
    expect(session.flags.isSet(SESSION_ENDED_FLAG)).toBe(true);
  });

  it('a logout the person pressed forgets the remembered path and says nothing on /landing', async () => {
    const session = await createTestAppSession({ unlocked: true });
    session.flags.set(sessionStorageKeys.redirectAfterUnlock, '/contacts');
    await session.logout({ from: '/contacts' });
    expect(session.flags.get(sessionStorageKeys.redirectAfterUnlock)).toBeNull();
    expect(session.flags.isSet(SESSION_ENDED_FLAG)).toBe(false);
  });

  it('keeps what a logout cancelled for /landing, read before the transfers are aborted', async () => {
    const session = await createTestAppSession({ unlocked: true });
    let running = 2;
    session.operations.addSource({
      hasActive: () => running > 0,
      abortAll: () => {
        running = 0;
        return Promise.resolve();
      },
      describeActive: () => (running > 0 ? [`${running} uploads cancelled`] : []),
    });
    await session.logout({ from: '/new' });
    expect(running).toBe(0);
    expect(session.flags.get(TRANSFERS_CANCELLED_FLAG)).toBe(JSON.stringify(['2 uploads cancelled']));

    const idle = await createTestAppSession({ unlocked: true });
    await idle.logout({ from: '/new' });
    expect(idle.flags.get(TRANSFERS_CANCELLED_FLAG)).toBeNull();
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
