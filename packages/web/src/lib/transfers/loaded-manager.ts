/**
 * The transfer engine loads with the first screen that moves files, not with the first page: the
 * app shell (logout, leaving a route, analytics) reaches the manager through this small module,
 * which imports only types. Until the engine has loaded there is no transfer, so nothing is active.
 */
import type { TransferManager } from './transfer-manager.types';

let loaded: TransferManager | undefined;
const waiting = new Set<(manager: TransferManager) => void>();

/** Called once by `lib/transfers` when its manager exists. */
export function announceTransferManager(manager: TransferManager): void {
  loaded = manager;
  for (const notify of [...waiting]) notify(manager);
  waiting.clear();
}

/** The app's transfer manager, or undefined while the engine has not loaded (no transfer yet). */
export function loadedTransferManager(): TransferManager | undefined {
  return loaded;
}

/**
 * `manager.subscribe(listener)` as soon as the engine has loaded (at once if it has), and a call of
 * `listener` then, since the state it now sees may differ. Returns the unsubscribe function.
 */
export function subscribeToTransfers(listener: () => void): () => void {
  let unsubscribe: (() => void) | undefined;
  let stopped = false;
  const attach = (manager: TransferManager): void => {
    if (stopped) return;
    unsubscribe = manager.subscribe(listener);
    listener();
  };
  if (loaded !== undefined) attach(loaded);
  else waiting.add(attach);
  return () => {
    stopped = true;
    waiting.delete(attach);
    unsubscribe?.();
  };
}
