/**
 * One running copy of each multipart upload per browser: two tabs could otherwise resume the same
 * unfinished upload at once (or one resume it while the tab that started it still sends it), and
 * both would encrypt and send the same parts. A Web Lock named after the upload id is held for the
 * whole upload or resume; a tab that cannot take it at once refuses to start.
 */
export interface UploadLocks {
  /**
   * Takes the upload's lock if no tab of this browser holds it; answers the function that releases
   * it, or null when it is held elsewhere.
   */
  tryHold(uploadId: string): Promise<(() => void) | null>;
}

/** Ours (docs/ui-strings.md): Resume while another tab of this browser runs the same upload. */
export const UPLOAD_RUNNING_ELSEWHERE_TEXT =
  'This upload is running in another tab or window of this browser. Let it finish there, or close that tab and try again.';

const lockName = (uploadId: string): string => `coffer-upload:${uploadId}`;

/** The Web Locks API's lock: held until the promise the callback answered settles. */
export function webUploadLocks(manager: LockManager): UploadLocks {
  return {
    tryHold: (uploadId) =>
      new Promise((resolve, reject) => {
        manager
          .request(lockName(uploadId), { ifAvailable: true }, (lock) => {
            if (lock === null) {
              resolve(null);
              return undefined;
            }
            return new Promise<void>((release) => {
              resolve(() => {
                release();
              });
            });
          })
          .catch(reject);
      }),
  };
}

/** Within one page only: for tests, and browsers without Web Locks (which then miss other tabs). */
export function createMemoryUploadLocks(): UploadLocks {
  const held = new Set<string>();
  return {
    tryHold: (uploadId) => {
      if (held.has(uploadId)) return Promise.resolve(null);
      held.add(uploadId);
      return Promise.resolve(() => {
        held.delete(uploadId);
      });
    },
  };
}

let shared: UploadLocks | undefined;

/**
 * The browser's Web Locks (every supported browser, in a secure context), else the page-local
 * stand-in (happy-dom answers `navigator.locks` with null).
 */
export function browserUploadLocks(): UploadLocks {
  const manager =
    typeof navigator === 'undefined' ? undefined : (navigator.locks as LockManager | null | undefined);
  shared ??= manager === null || manager === undefined ? createMemoryUploadLocks() : webUploadLocks(manager);
  return shared;
}
