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
 * Subscribes `listener` to `manager`'s changes. A running transfer's own progress is heard at most once
 * per task of the page: at an upload's chunk boundary the engine publishes several steps in one task
 * (the part sealed, the phase's text, the bytes on their way), and `useSyncExternalStore` renders at
 * once for each, so the transfer cards rendered four times in one task, 4–10 ms each on a busy core,
 * up to 70 ms of the main thread in one task (docs/transfers.md, "One render per task"); a state
 * replaced within the task that set it is never painted anyway. Any other change (a transfer started,
 * cancelled, ended) is heard at once, with what progress was waiting: a second click must find the
 * Download button already replaced, a Cancel the transfer already gone.
 */
export function subscribeOncePerTask(
  manager: Pick<TransferManager, 'subscribe'>,
  listener: () => void,
): () => void {
  let pending: ReturnType<typeof setTimeout> | null = null;
  const hear = (): void => {
    if (pending !== null) clearTimeout(pending);
    pending = null;
    listener();
  };
  const unsubscribe = manager.subscribe((progressOnly) => {
    if (progressOnly) pending ??= setTimeout(hear, 0);
    else hear();
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
