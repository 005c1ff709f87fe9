import { describe, expect, it, vi } from 'vitest';
import { createMemoryUploadLocks, webUploadLocks } from './upload-locks';

/** The part of the Web Locks API the adapter uses: exclusive locks, `ifAvailable` only. */
function fakeLockManager(): LockManager {
  const held = new Set<string>();
  const request = async (
    name: string,
    options: LockOptions,
    callback: (lock: Lock | null) => unknown,
  ): Promise<unknown> => {
    if (options.ifAvailable !== true) throw new Error('only ifAvailable is faked');
    if (held.has(name)) return callback(null);
    held.add(name);
    try {
      return await callback({ name, mode: 'exclusive' });
    } finally {
      held.delete(name);
    }
  };
  return { request, query: () => Promise.resolve({}) } as unknown as LockManager;
}

describe.each([
  ['Web Locks', () => webUploadLocks(fakeLockManager())],
  ['the page-local stand-in', createMemoryUploadLocks],
])('upload locks (%s)', (_, create) => {
  it('lets one holder have an upload at a time, and others once it is released', async () => {
    const locks = create();
    const release = await locks.tryHold('u1');
    expect(release).not.toBeNull();
    expect(await locks.tryHold('u1')).toBeNull();
    const other = await locks.tryHold('u2');
    expect(other).not.toBeNull();
    release?.();
    // The Web Lock is released once the held promise settles: wait for that state.
    await vi.waitFor(async () => {
      expect(await locks.tryHold('u1')).not.toBeNull();
    });
  });
});
