import { describe, expect, it } from 'vitest';
import {
  BYTES_PER_GB,
  formatCount,
  formatDateTime,
  formatGb,
  formatSize,
  formatStorageUsed,
  parseDateTime,
  storagePercent,
} from './format.js';

describe('formatSize', () => {
  it.each([
    [0, '0 Bytes'],
    [1, '1 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1.00 KB'],
    [1536, '1.50 KB'],
    [1024 * 1024, '1.00 MB'],
    [99_614_720, '95.00 MB'],
    [1024 ** 3 * 2.25, '2.25 GB'],
    [1024 ** 4, '1.00 TB'],
    [1024 ** 5, '1024.00 TB'],
    [1024 * 1024 - 1, '1.00 MB'],
    [-5, '0 Bytes'],
    [Number.NaN, '0 Bytes'],
  ])('%d → %s', (bytes, text) => {
    expect(formatSize(bytes)).toBe(text);
  });
});

describe('formatDateTime / parseDateTime', () => {
  it('formats dd/mm/yyyy HH:MM:SS in local time, zero-padded', () => {
    expect(formatDateTime(new Date(2024, 0, 5, 7, 8, 9))).toBe('05/01/2024 07:08:09');
    expect(formatDateTime(new Date(2023, 11, 31, 23, 59, 59))).toBe('31/12/2023 23:59:59');
  });

  it('accepts ISO strings and epoch ms', () => {
    const d = new Date(2024, 5, 15, 12, 30, 0);
    expect(formatDateTime(d.toISOString())).toBe('15/06/2024 12:30:00');
    expect(formatDateTime(d.getTime())).toBe('15/06/2024 12:30:00');
    expect(formatDateTime('not a date')).toBe('');
  });

  it('round-trips to the second', () => {
    const d = new Date(2025, 1, 28, 16, 4, 5);
    expect(parseDateTime(formatDateTime(d))?.getTime()).toBe(d.getTime());
    const now = new Date();
    now.setMilliseconds(0);
    expect(parseDateTime(formatDateTime(now))?.getTime()).toBe(now.getTime());
  });

  it('sorts newest first via the parsed value', () => {
    const texts = ['01/02/2024 10:00:00', '15/01/2024 09:00:00', '01/02/2024 09:59:59'];
    const sorted = [...texts].sort(
      (a, b) => (parseDateTime(b)?.getTime() ?? 0) - (parseDateTime(a)?.getTime() ?? 0),
    );
    expect(sorted).toEqual(['01/02/2024 10:00:00', '01/02/2024 09:59:59', '15/01/2024 09:00:00']);
  });

  it('rejects malformed or impossible dates', () => {
    expect(parseDateTime('')).toBeNull();
    expect(parseDateTime('2024-01-01T00:00:00Z')).toBeNull();
    expect(parseDateTime('31/02/2024 10:00:00')).toBeNull();
    expect(parseDateTime('01/13/2024 10:00:00')).toBeNull();
    expect(parseDateTime('01/01/2024 24:00:00')).toBeNull();
  });
});

describe('storagePercent', () => {
  const gb = 10;
  const bytesFor = (percent: number): number => (percent / 100) * gb * BYTES_PER_GB;

  it.each([
    [0, 0],
    [0.01, 1],
    [50, 50],
    [98.2, 99],
    [99, 99],
    [99.01, 99],
    [99.5, 99],
    [99.99, 99],
    [100, 100],
    [150, 100],
  ])('%d%% → %d', (percent, shown) => {
    expect(storagePercent(bytesFor(percent), gb)).toBe(shown);
  });

  it('handles a zero or invalid limit', () => {
    expect(storagePercent(0, 0)).toBe(0);
    expect(storagePercent(1, 0)).toBe(100);
    expect(storagePercent(1, Number.NaN)).toBe(100);
    expect(storagePercent(-1, 5)).toBe(0);
  });
});

describe('formatCount, formatGb, formatStorageUsed: the one way every screen prints plan figures', () => {
  it('separates thousands', () => {
    expect(formatCount(5000)).toBe('5,000');
    expect(formatCount(12)).toBe('12');
    expect(formatCount(1_000_000)).toBe('1,000,000');
  });

  it('prints whole and fractional storage limits', () => {
    expect(formatGb(5)).toBe('5 GB');
    expect(formatGb(0.5)).toBe('0.5 GB');
    expect(formatGb(1024)).toBe('1,024 GB');
  });

  it('prints a little use in its own unit, never as 0.00 GB', () => {
    expect(formatStorageUsed(0)).toBe('0.00 GB');
    expect(formatStorageUsed(3_061_842)).toBe('2.92 MB');
    expect(formatStorageUsed(1.25 * BYTES_PER_GB)).toBe('1.25 GB');
  });
});
