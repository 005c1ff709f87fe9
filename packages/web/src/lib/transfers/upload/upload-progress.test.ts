import { describe, expect, it } from 'vitest';
import { createProgressReporter, type ProgressReporter } from '../progress';
import { createUploadWork } from './upload-progress';

describe('createUploadWork: the percentage of an upload', () => {
  const reporterLog = (): { reporter: ProgressReporter; percents: number[] } => {
    const percents: number[] = [];
    return { reporter: createProgressReporter(({ percent }) => percents.push(percent), 'start'), percents };
  };

  it('counts reading for encryption as half of the work and sending as the other half', () => {
    const { reporter, percents } = reporterLog();
    const work = createUploadWork(reporter, 1000, 1056);
    work.read(0, 250);
    expect(percents.at(-1)).toBe(12.5);
    work.read(0, 500);
    // Re-reporting a chunk's bytes never counts them twice.
    work.read(0, 500);
    expect(percents.at(-1)).toBe(25);
    work.sent(528);
    expect(percents.at(-1)).toBe(50);
    work.read(1, 500);
    work.sent(1056);
    expect(percents.at(-1)).toBe(100);
  });

  it('never goes back when a part is sent again after a retry', () => {
    const { reporter, percents } = reporterLog();
    const work = createUploadWork(reporter, 100, 100);
    work.read(0, 100);
    work.sent(80);
    work.sent(0);
    expect(percents.at(-1)).toBe(90);
  });
});
