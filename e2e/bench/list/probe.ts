// What the benchmark reads in the page after each navigation to /myfiles.

/**
 * Init script: records when the first card with a decrypted name is in the DOM (performance.now()
 * counts from the navigation's start).
 */
export const FIRST_CARD_PROBE = `(() => {
  const seen = () => {
    const title = document.querySelector('[data-testid="file-title"]');
    if (title !== null && title.textContent.startsWith('bench-')) {
      globalThis.__firstCardMs = performance.now();
      return true;
    }
    return false;
  };
  const observer = new MutationObserver(() => { if (seen()) observer.disconnect(); });
  document.addEventListener('DOMContentLoaded', () => {
    if (!seen()) observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  });
})();`;

/** One navigation's times (ms from its start). */
export interface RunTimes {
  /** The first card with a decrypted name in the DOM. */
  firstCard: number;
  /** The app started listing (the first GET /users/files or /users/folders). */
  listStart: number;
  /** The list calls' last answer ended. */
  listEnd: number;
  listCalls: number;
  /** The app's User Timing measures `coffer:drive:*` (their end, and duration). */
  measures: Record<string, { end: number; duration: number }>;
  cards: number;
}

/** Reads a run's times once the first card is there (the app's measures as far as they went). */
export const READ_RUN = `(() => {
  const calls = performance.getEntriesByType('resource').filter((entry) => /\\/api\\/users\\/(files|folders)(\\?|$)/.test(entry.name));
  const measures = {};
  for (const entry of performance.getEntriesByType('measure')) {
    if (!entry.name.startsWith('coffer:drive:')) continue;
    const name = entry.name.slice('coffer:drive:'.length);
    measures[name] = { end: entry.startTime + entry.duration, duration: entry.duration };
  }
  return {
    firstCard: globalThis.__firstCardMs ?? -1,
    listStart: Math.min(...calls.map((entry) => entry.startTime)),
    listEnd: Math.max(...calls.map((entry) => entry.responseEnd)),
    listCalls: calls.length,
    measures,
    cards: document.querySelectorAll('[data-testid="file-title"]').length,
  };
})()`;

/**
 * Whether the app's measure `coffer:drive:<name>` has been recorded, and (with `count`) one whose
 * `detail.count` reaches it: the list grows a page at a time, and each check of its node records
 * records `coffer:drive:records` with how many nodes it answered. A function, for
 * `page.waitForFunction` (the app's CSP refuses evaluating strings there).
 */
export function hasMeasure({ name, count }: { name: string; count: number }): boolean {
  return performance.getEntriesByName(`coffer:drive:${name}`, 'measure').some((entry) => {
    const detail = (entry as PerformanceMeasure).detail as { count?: number } | null;
    return (detail?.count ?? 0) >= count;
  });
}
