import { describe, expect, it } from 'vitest';
import { formatDate } from './date';

describe('formatDate', () => {
  it('is the date part of formatDateTime', () => {
    expect(formatDate(new Date(2026, 2, 5, 23, 59, 59))).toBe('05/03/2026');
    expect(formatDate('not a date')).toBe('');
  });
});
