import { describe, expect, it } from 'vitest';
import { createProgressReporter, progressGate, quantizePercent } from './progress';
import { ProgressLog } from './testing/progress-log';

describe('progress', () => {
  it('quantizes to 0.5 steps within 0–100', () => {
    expect(quantizePercent(0.49)).toBe(0);
    expect(quantizePercent(0.5)).toBe(0.5);
    expect(quantizePercent(33.33)).toBe(33);
    expect(quantizePercent(99.99)).toBe(99.5);
    expect(quantizePercent(120)).toBe(100);
    expect(quantizePercent(-3)).toBe(0);
  });

  it('reports only forward steps of at least 0.5% and text changes', () => {
    const log = new ProgressLog();
    const reporter = createProgressReporter(log.listener, 'start');
    for (let done = 0; done <= 1000; done += 1) reporter.fraction(done, 1000);
    reporter.fraction(10, 1000);
    reporter.text('start');
    reporter.text('next');
    reporter.finish('done');
    log.expectSpecSteps();
    expect(log.events).toHaveLength(1 + 200 + 1 + 1);
    expect(log.texts).toEqual(['start', 'next', 'done']);
    expect(log.events.at(-1)).toEqual({ percent: 100, text: 'done' });
  });

  it('gates messages between threads: a new step at most every 150 ms, 100 % at once', () => {
    let clock = 0;
    const posts = progressGate(150, () => clock);
    const posted: number[] = [];
    for (let done = 0; done <= 1000; done++) {
      clock += 1;
      if (posts(done, 1000)) posted.push(done);
    }
    expect(posted).toEqual([0, 150, 300, 450, 600, 750, 900, 1000]);
    expect(posts(1000, 1000)).toBe(false);
  });

  it('treats an empty total as done', () => {
    const log = new ProgressLog();
    createProgressReporter(log.listener, 'x').fraction(0, 0);
    expect(log.events.at(-1)?.percent).toBe(100);
  });
});
