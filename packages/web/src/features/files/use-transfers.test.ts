import { describe, expect, it } from 'vitest';
import { subscribeOncePerTask } from './use-transfers';

/** A manager that publishes when told to. */
function publisher(): {
  subscribe: (listener: () => void) => () => void;
  publish: () => void;
  listeners: number;
} {
  const listeners = new Set<() => void>();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    publish() {
      for (const listener of [...listeners]) listener();
    },
    get listeners() {
      return listeners.size;
    },
  };
}

const nextTask = (): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, 0);
  });

describe('subscribeOncePerTask', () => {
  it('hears several publishes of one task once, after that task, and again for a later one', async () => {
    const manager = publisher();
    let heard = 0;
    subscribeOncePerTask(manager, () => (heard += 1));
    // An upload's chunk boundary: changes published across awaits within one task.
    manager.publish();
    await Promise.resolve();
    manager.publish();
    await Promise.resolve();
    manager.publish();
    expect(heard).toBe(0);
    await nextTask();
    expect(heard).toBe(1);
    manager.publish();
    await nextTask();
    expect(heard).toBe(2);
  });

  it('unsubscribing cancels a pending call and leaves the manager', async () => {
    const manager = publisher();
    let heard = 0;
    const unsubscribe = subscribeOncePerTask(manager, () => (heard += 1));
    manager.publish();
    unsubscribe();
    await nextTask();
    expect(heard).toBe(0);
    expect(manager.listeners).toBe(0);
  });
});
