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

/** The manager's uploads and downloads; re-renders on every progress step. */
export function useTransfers(): TransfersSnapshot {
  const manager = useTransferManager();
  const subscribe = useCallback((listener: () => void) => manager.subscribe(listener), [manager]);
  const getSnapshot = useCallback(() => manager.getSnapshot(), [manager]);
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
