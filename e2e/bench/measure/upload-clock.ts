// Browser globals for the functions that run in the page (`page.evaluate`).
/// <reference lib="dom" />

/**
 * The encrypted upload's times, taken in the page: the click on Upload Files (a capturing listener)
 * and the success snackbar's arrival in the DOM (a MutationObserver), with each change of the row's
 * status text between them. Timed from the driver instead, the end would be seen by Playwright's
 * polling, which waits 500 ms between looks once a wait has lasted a second: up to half a second added
 * to the encrypted upload and none to the plain one, which is timed in the page.
 */
export interface UploadClock {
  /** `performance.now()` of the click; null before it. */
  clickAt: number | null;
  /** When the snackbar with the success text was added; null before it. */
  doneAt: number | null;
  /** The row's status texts as they changed, with when (at most a few hundred). */
  texts: [number, string][];
}

declare global {
  interface Window {
    __cofferUploadClock?: UploadClock;
    /** Stops the clock's listener and observer (the next start, or the reading, calls it). */
    __cofferUploadClockStop?: () => void;
  }
}

/** In the page: starts the clock for the next click on the button named `button`. */
export function startUploadClock({ button, doneText }: { button: string; doneText: string }): void {
  window.__cofferUploadClockStop?.();
  const clock: UploadClock = { clickAt: null, doneAt: null, texts: [] };
  window.__cofferUploadClock = clock;
  const onClick = (event: MouseEvent): void => {
    const target = event.target instanceof Element ? event.target.closest('button') : null;
    if (clock.clickAt === null && target?.textContent.trim() === button) clock.clickAt = performance.now();
  };
  document.addEventListener('click', onClick, { capture: true });
  let lastText = '';
  const observer = new MutationObserver((records) => {
    if (clock.clickAt === null) return;
    const now = performance.now();
    const status = document.querySelector('[data-testid="upload-status"]')?.textContent ?? '';
    if (status !== lastText) {
      lastText = status;
      clock.texts.push([now, status]);
    }
    for (const record of records) {
      for (let i = 0; i < record.addedNodes.length; i++) {
        if (clock.doneAt === null && record.addedNodes.item(i)?.textContent?.includes(doneText) === true) {
          clock.doneAt = now;
          observer.disconnect();
          return;
        }
      }
    }
  });
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  window.__cofferUploadClockStop = () => {
    observer.disconnect();
    document.removeEventListener('click', onClick, { capture: true });
    window.__cofferUploadClockStop = undefined;
  };
}

/** In the page: the clock's readings. */
export function readUploadClock(): UploadClock | null {
  window.__cofferUploadClockStop?.();
  return window.__cofferUploadClock ?? null;
}
