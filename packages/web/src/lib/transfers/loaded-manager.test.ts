import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeTransferManager, type FakeTransferManager } from '../../test/fake-transfer-manager';
import type * as LoadedManager from './loaded-manager';
import type { EnqueueUploadsOptions } from './transfer-manager.types';

type LoadedManagerModule = typeof LoadedManager;

/** Any change of the manager's state (the fake ignores the options). */
const change = (manager: FakeTransferManager): void => {
  manager.enqueueUploads([new File(['x'], 'a.txt')], {} as EnqueueUploadsOptions);
};

describe('loaded-manager: the app shell reaches a transfer engine that loads later', () => {
  let registry: LoadedManagerModule;
  beforeEach(async () => {
    vi.resetModules();
    registry = await import('./loaded-manager');
  });

  it('has no manager, and calls no listener, until the engine announces itself', () => {
    const listener = vi.fn();
    registry.subscribeToTransfers(listener);
    expect(registry.loadedTransferManager()).toBeUndefined();
    expect(listener).not.toHaveBeenCalled();

    const manager = createFakeTransferManager();
    registry.announceTransferManager(manager);
    expect(registry.loadedTransferManager()).toBe(manager);
    // Once on arrival (the state may have changed), then on every change of the manager.
    expect(listener).toHaveBeenCalledTimes(1);
    change(manager);
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('subscribes at once when the engine is already there, and unsubscribes', () => {
    const manager = createFakeTransferManager();
    registry.announceTransferManager(manager);
    const listener = vi.fn();
    const unsubscribe = registry.subscribeToTransfers(listener);
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
    change(manager);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('never subscribes a listener that unsubscribed before the engine arrived', () => {
    const listener = vi.fn();
    registry.subscribeToTransfers(listener)();
    const manager = createFakeTransferManager();
    registry.announceTransferManager(manager);
    change(manager);
    expect(listener).not.toHaveBeenCalled();
  });

  it('is announced by lib/transfers when the engine module loads', async () => {
    expect(registry.loadedTransferManager()).toBeUndefined();
    const { transferManager } = await import('./index');
    expect(registry.loadedTransferManager()).toBe(transferManager);
  });
});
