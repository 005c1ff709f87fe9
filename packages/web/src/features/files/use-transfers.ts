import { createContext, useCallback, useContext, useSyncExternalStore } from 'react';
import { transferManager, type TransferManager, type TransfersSnapshot } from '../../lib/transfers';

/**
 * The transfer manager the file screens use: the app's singleton, or a fake in component tests
 * (`<TransferManagerContext value={createTransferManager(fakes)}>`).
 */
export const TransferManagerContext = createContext<TransferManager>(transferManager);

export function useTransferManager(): TransferManager {
  return useContext(TransferManagerContext);
}

/**
 * Subscribes `listener` to `manager`'s changes, heard at most once per task of the page. The manager
 * publishes each change as it happens, and at an upload's chunk boundary several come in one task
 * (the part sealed, the phase's text, the bytes on their way); `useSyncExternalStore` renders at once
 * for each, so the transfer cards rendered four times in one task, 4–10 ms each on a busy core, up
 * to 70 ms of the main thread in one task (docs/benchmarks.md, session 31). A state replaced within
 * the task that set it is never painted, so nothing a person could see is lost.
 */
export function subscribeOncePerTask(
  manager: Pick<TransferManager, 'subscribe'>,
  listener: () => void,
): () => void {
  let pending: ReturnType<typeof setTimeout> | null = null;
  const unsubscribe = manager.subscribe(() => {
    pending ??= setTimeout(() => {
      pending = null;
      listener();
    }, 0);
  });
  return () => {
    if (pending !== null) clearTimeout(pending);
    unsubscribe();
  };
}

/** The manager's uploads and downloads; re-renders on every progress step (once per task). */
export function useTransfers(): TransfersSnapshot {
  const manager = useTransferManager();
  const subscribe = useCallback((listener: () => void) => subscribeOncePerTask(manager, listener), [manager]);
  const getSnapshot = useCallback(() => manager.getSnapshot(), [manager]);
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
