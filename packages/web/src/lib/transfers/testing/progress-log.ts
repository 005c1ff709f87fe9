import { expect } from 'vitest';
import type { TransferProgress } from '../transfer-types';

/** Collects progress events and checks the spec's rules on them. */
export class ProgressLog {
  readonly events: TransferProgress[] = [];
  readonly listener = (progress: TransferProgress): void => {
    this.events.push(progress);
  };

  get texts(): string[] {
    return this.events.map((event) => event.text).filter((text, i, all) => i === 0 || all[i - 1] !== text);
  }

  /** Percentages never go back, move in steps of ≥ 0.5 and are multiples of 0.5. */
  expectSpecSteps(): void {
    const percents = this.events.map((event) => event.percent);
    for (const percent of percents) expect(percent % 0.5).toBe(0);
    for (let i = 1; i < percents.length; i++) {
      const step = (percents[i] ?? 0) - (percents[i - 1] ?? 0);
      expect(step).toBeGreaterThanOrEqual(0);
      if (step > 0) expect(step).toBeGreaterThanOrEqual(0.5);
    }
  }
}
