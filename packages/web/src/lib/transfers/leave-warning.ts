import type { TransferManager } from './transfer-manager';

/**
 * Makes the browser ask before the page is closed or reloaded while a transfer runs (the
 * `beforeunload` prompt; its text is the browser's own). Returns the function that removes it.
 */
export function installLeaveWarning(
  manager: Pick<TransferManager, 'hasActiveOperations'>,
  target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window,
): () => void {
  const onBeforeUnload = (event: BeforeUnloadEvent): void => {
    if (manager.hasActiveOperations()) event.preventDefault();
  };
  target.addEventListener('beforeunload', onBeforeUnload);
  return () => {
    target.removeEventListener('beforeunload', onBeforeUnload);
  };
}
