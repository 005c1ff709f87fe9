// Browser globals for the functions that run in the page (`page.evaluate`, `addInitScript`).
/// <reference lib="dom" />
import type { Page } from 'playwright-core';

interface BlockRecorder {
  /** [startTime, duration] of each long task (> 50 ms). */
  longTasks: [number, number][];
  /** [time of the previous tick, lateness] of each 10 ms timer tick more than 40 ms late. */
  lateTicks: [number, number][];
}

/** Installed before the app's scripts in every document of the page. */
export function installBlockRecorder(): void {
  const recorder: BlockRecorder = { longTasks: [], lateTicks: [] };
  (window as unknown as { __benchBlocks: BlockRecorder }).__benchBlocks = recorder;
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) recorder.longTasks.push([entry.startTime, entry.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // No Long Tasks API: the timer below still measures.
  }
  const PERIOD = 10;
  let last = performance.now();
  const tick = (): void => {
    const now = performance.now();
    const late = now - last - PERIOD;
    if (late > 40) recorder.lateTicks.push([last, late]);
    last = now;
    setTimeout(tick, PERIOD);
  };
  setTimeout(tick, PERIOD);
}

export interface Blocking {
  longestTaskMs: number;
  longestLateTickMs: number;
  /** [ms after the transfer started, duration ms] of each long task during it. */
  longTasks: [number, number][];
}

export async function blockingBetween(page: Page, from: number, to: number): Promise<Blocking> {
  return page.evaluate(
    ({ from, to }) => {
      const r = (window as unknown as { __benchBlocks?: BlockRecorder }).__benchBlocks;
      const overlaps = ([start, length]: [number, number]): boolean => start < to && start + length > from;
      const longest = (entries: [number, number][] | undefined): number =>
        Math.max(0, ...(entries ?? []).filter(overlaps).map(([, length]) => length));
      return {
        longestTaskMs: longest(r?.longTasks),
        longestLateTickMs: longest(r?.lateTicks),
        longTasks: (r?.longTasks ?? [])
          .filter(overlaps)
          .map(([start, length]): [number, number] => [start - from, length]),
      };
    },
    { from, to },
  );
}

export const pageNow = (page: Page): Promise<number> => page.evaluate(() => performance.now());
