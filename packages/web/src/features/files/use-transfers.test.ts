import { describe, expect, it } from 'vitest';
import { subscribeOncePerTask } from './use-transfers';

/** A manager that publishes when told to. */
function publisher(): {
  subscribe: (listener: (progressOnly: boolean) => void) => () => void;
  publish: (progressOnly: boolean) => void;
  listeners: number;
} {
  const listeners = new Set<(progressOnly: boolean) => void>();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    publish(progressOnly) {
      for (const listener of [...listeners]) listener(progressOnly);
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
  it('hears several progress steps of one task once, after that task, and again for a later one', async () => {
    const manager = publisher();
    let heard = 0;
    subscribeOncePerTask(manager, () => (heard += 1));
    // An upload's chunk boundary: steps published across awaits within one task.
    manager.publish(true);
    await Promise.resolve();
    manager.publish(true);
    await Promise.resolve();
    manager.publish(true);
    expect(heard).toBe(0);
    await nextTask();
    expect(heard).toBe(1);
    manager.publish(true);
    await nextTask();
    expect(heard).toBe(2);
  });

  it('hears any other change at once, with the progress that was waiting, and not again after the task', async () => {
    const manager = publisher();
    let heard = 0;
    subscribeOncePerTask(manager, () => (heard += 1));
    manager.publish(true);
    // A download started by a click: the card must change before the next input can reach it.
    manager.publish(false);
    expect(heard).toBe(1);
    await nextTask();
    expect(heard).toBe(1);
  });

  it('unsubscribing cancels a pending call and leaves the manager', async () => {
    const manager = publisher();
    let heard = 0;
    const unsubscribe = subscribeOncePerTask(manager, () => (heard += 1));
    manager.publish(true);
    unsubscribe();
    await nextTask();
    expect(heard).toBe(0);
    expect(manager.listeners).toBe(0);
  });
});
