/**
 * A snackbar that must survive a page reload: the reset flow shows its message and then reloads the
 * page (spec section 2), which would wipe a toast shown before the reload. The message waits in
 * session storage and is shown once by the next page load.
 */
export type FlashColor = 'success' | 'danger' | 'warning';

export interface FlashMessage {
  message: string;
  color: FlashColor;
}

const FLASH_KEY = 'coffer.flash';

function storage(): Storage | null {
  try {
    return globalThis.sessionStorage;
  } catch {
    return null;
  }
}

export function setFlashMessage(flash: FlashMessage, store: Storage | null = storage()): void {
  try {
    store?.setItem(FLASH_KEY, JSON.stringify(flash));
  } catch {
    // Without storage the message is simply not shown after the reload.
  }
}

/** Returns the waiting message once and forgets it. */
export function takeFlashMessage(store: Storage | null = storage()): FlashMessage | null {
  let raw: string | null;
  try {
    raw = store?.getItem(FLASH_KEY) ?? null;
    store?.removeItem(FLASH_KEY);
  } catch {
    return null;
  }
  if (raw === null) return null;
  try {
    const value = JSON.parse(raw) as Partial<FlashMessage>;
    if (typeof value.message !== 'string') return null;
    const color = value.color === 'danger' || value.color === 'warning' ? value.color : 'success';
    return { message: value.message, color };
  } catch {
    return null;
  }
}
