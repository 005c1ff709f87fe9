import { DIRECT_UPLOAD_THRESHOLD } from '@coffer/contracts';
import { TransferError } from '../transfer-errors';
import { isSaveMethod, type ResolvedSaveMethod, type SaveMethod } from './save-sink';

/** What the browser offers for saving. */
export interface SaveCapabilities {
  readonly fsAccess: boolean;
  readonly serviceWorker: boolean;
}

/** Largest download the Blob fallback takes: it holds the whole file in memory. */
export const BLOB_SAVE_LIMIT = DIRECT_UPLOAD_THRESHOLD;

/** Ours: no streaming save method and a file too big for memory. */
export const CANNOT_SAVE_LARGE_TEXT =
  'This browser cannot save files this large. Please use a current version of Chrome, Edge, Firefox or Safari.';
/** Ours: a save method that was asked for explicitly is not available. */
export const SAVE_METHOD_UNAVAILABLE_TEXT = 'This browser cannot save the file this way.';

/**
 * Key in localStorage that overrides `auto`, e.g. `service-worker` in browser tests:
 * `showSaveFilePicker` opens a native dialog no test can drive.
 */
export const SAVE_METHOD_STORAGE_KEY = 'coffer.saveMethod';

export function detectSaveCapabilities(): SaveCapabilities {
  return {
    fsAccess: typeof (globalThis as { showSaveFilePicker?: unknown }).showSaveFilePicker === 'function',
    serviceWorker:
      typeof navigator !== 'undefined' && 'serviceWorker' in navigator && globalThis.isSecureContext,
  };
}

/** The save method asked for in localStorage, or `auto`. */
export function preferredSaveMethod(): SaveMethod {
  try {
    const stored = globalThis.localStorage.getItem(SAVE_METHOD_STORAGE_KEY);
    return isSaveMethod(stored) ? stored : 'auto';
  } catch {
    return 'auto';
  }
}

/**
 * The method a download of `size` bytes will use. `auto` picks the service worker where the browser
 * has one (Chrome, Edge, Firefox, Safari): an ordinary download, in the browser's download list,
 * no dialog. Else the File System Access API (a Chromium whose service workers are unavailable,
 * e.g. disabled by policy), else a Blob when the file is small enough. The picker stays available
 * on request (`coffer.saveMethod` = `fs-access`): it writes straight to the chosen file.
 * @throws {TransferError} SAVE_UNAVAILABLE when nothing fits.
 */
export function resolveSaveMethod(
  requested: SaveMethod,
  size: number,
  capabilities: SaveCapabilities = detectSaveCapabilities(),
): ResolvedSaveMethod {
  const blobFits = size <= BLOB_SAVE_LIMIT;
  switch (requested) {
    case 'auto':
      if (capabilities.serviceWorker) return 'service-worker';
      if (capabilities.fsAccess) return 'fs-access';
      if (blobFits) return 'blob';
      throw new TransferError('SAVE_UNAVAILABLE', CANNOT_SAVE_LARGE_TEXT);
    case 'fs-access':
      if (capabilities.fsAccess) return requested;
      throw new TransferError('SAVE_UNAVAILABLE', SAVE_METHOD_UNAVAILABLE_TEXT);
    case 'service-worker':
      if (capabilities.serviceWorker) return requested;
      throw new TransferError('SAVE_UNAVAILABLE', SAVE_METHOD_UNAVAILABLE_TEXT);
    case 'blob':
      if (blobFits) return requested;
      throw new TransferError('SAVE_UNAVAILABLE', CANNOT_SAVE_LARGE_TEXT);
  }
}
