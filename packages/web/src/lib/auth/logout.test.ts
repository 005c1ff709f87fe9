import { describe, expect, it, vi } from 'vitest';
import { MemoryStorage } from '../encryption/testing/fake-keys-server';
import { logoutTarget, performLogout, type LogoutDeps } from './logout';

function deps(
  overrides: Partial<LogoutDeps> = {},
): LogoutDeps & { order: string[]; stores: MemoryStorage[] } {
  const order: string[] = [];
  const session = new MemoryStorage();
  const local = new MemoryStorage();
  session.setItem('encryptionDerivedKey', 'handle');
  local.setItem('oidc.user:issuer:client', '{}');
  return {
    order,
    stores: [session, local],
    operations: {
      abortAll: vi.fn(() => {
        order.push('abort operations');
        return Promise.resolve(2);
      }),
    },
    encryption: {
      clear: vi.fn((options?: { everywhere?: boolean }) => {
        order.push(`clear encryption everywhere=${String(options?.everywhere)}`);
        return Promise.resolve();
      }),
    },
    auth: {
      forgetUser: vi.fn(() => {
        order.push('forget user');
        return Promise.resolve({ idToken: 'id-token' });
      }),
      endSession: vi.fn((idToken: string | null, target: string) => {
        order.push(`end session ${String(idToken)} ${target}`);
        return Promise.resolve();
      }),
    },
    clearCaches: () => {
      order.push('clear caches');
    },
    storages: () => [session, local],
    navigate: (path) => {
      order.push(`navigate ${path}`);
    },
    ...overrides,
  };
}

describe('logout', () => {
  it('goes to /login from the unlock screen, /landing from anywhere else', () => {
    expect(logoutTarget('/unlock')).toBe('/login');
    expect(logoutTarget('/contacts')).toBe('/landing');
    expect(logoutTarget('/new')).toBe('/landing');
  });

  it('aborts, clears encryption, user, caches and storages, then ends the provider session', async () => {
    const d = deps();
    await performLogout(d, { targetPath: '/landing' });
    expect(d.order).toEqual([
      'abort operations',
      'clear encryption everywhere=true',
      'clear caches',
      'forget user',
      'end session id-token /landing',
    ]);
    for (const storage of d.stores) expect(storage.length).toBe(0);
  });

  it('goes straight to the target without the provider when asked (another tab logged out)', async () => {
    const d = deps();
    await performLogout(d, { targetPath: '/landing', endProviderSession: false });
    expect(d.order.at(-1)).toBe('navigate /landing');
    expect(d.auth.endSession).not.toHaveBeenCalled();
  });

  it('finishes every step when one fails', async () => {
    const d = deps({
      operations: { abortAll: () => Promise.reject(new Error('stuck')) },
      auth: {
        forgetUser: () => Promise.reject(new Error('storage blocked')),
        endSession: () => Promise.reject(new Error('offline')),
      },
    });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await performLogout(d, { targetPath: '/login' });
    expect(d.order).toEqual(['clear encryption everywhere=true', 'clear caches', 'navigate /login']);
    for (const storage of d.stores) expect(storage.length).toBe(0);
  });
});
