import { PROGRESS_STEP_PERCENT } from '@coffer/contracts';
import type { ProgressListener } from './transfer-types';

/** Rounds down to the step, so reported values only move in steps of at least 0.5%. */
export function quantizePercent(percent: number): number {
  const clamped = Math.min(100, Math.max(0, percent));
  return Math.floor(clamped / PROGRESS_STEP_PERCENT) * PROGRESS_STEP_PERCENT;
}

export interface ProgressReporter {
  /** Reports a new text (at the current percentage) when it differs from the last one. */
  text(text: string): void;
  /** Reports `done / total` when it moved forward by at least one step. Never goes back. */
  fraction(done: number, total: number): void;
  /** 100% with the final text. */
  finish(text: string): void;
}

/**
 * Turns a transfer's raw byte counts into the spec's progress events: monotonic percentages in
 * steps of at least {@link PROGRESS_STEP_PERCENT}, plus text changes.
 */
export function createProgressReporter(listener: ProgressListener, initialText: string): ProgressReporter {
  let percent = 0;
  let text = initialText;
  listener({ percent, text });
  return {
    text(next) {
      if (next === text) return;
      text = next;
      listener({ percent, text });
    },
    fraction(done, total) {
      const next = quantizePercent(total <= 0 ? 100 : (done / total) * 100);
      if (next <= percent) return;
      percent = next;
      listener({ percent, text });
    },
    finish(finalText) {
      percent = 100;
      text = finalText;
      listener({ percent, text });
    },
  };
}

/**
 * Which byte counts a worker posts to the page (or to another worker) as progress: a new step of
 * 0.5 % at least `minIntervalMs` after the last one posted, and 100 % at once. One message per step
 * was 200 per transfer, each woken up on the receiving thread (the page's main thread among them).
 */
export function progressGate(
  minIntervalMs = 150,
  now: () => number = () => performance.now(),
): (done: number, total: number) => boolean {
  let percent = -1;
  let postedAt = Number.NEGATIVE_INFINITY;
  return (done, total) => {
    const next = quantizePercent(total <= 0 ? 100 : (done / total) * 100);
    if (next <= percent || (next < 100 && now() - postedAt < minIntervalMs)) return false;
    percent = next;
    postedAt = now();
    return true;
  };
}
