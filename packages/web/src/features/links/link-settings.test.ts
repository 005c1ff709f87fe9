import { describe, expect, it } from 'vitest';
import { choicesOf, expiryOf, maxDownloadsOf } from './link-settings';

const NOW = Date.parse('2026-11-27T10:00:00.000Z');

describe('link settings', () => {
  it('turns presets into an expiry from now, and never into null', () => {
    expect(expiryOf('1h', '', NOW).expiresAt).toBe('2026-11-27T11:00:00.000Z');
    expect(expiryOf('30d', '', NOW).expiresAt).toBe('2026-12-27T10:00:00.000Z');
    expect(expiryOf('never', '', NOW)).toEqual({ expiresAt: null, error: null });
  });

  it('takes a date in the future and refuses a past or missing one', () => {
    expect(expiryOf('date', '2026-12-01T09:30:00Z', NOW).expiresAt).toBe('2026-12-01T09:30:00.000Z');
    expect(expiryOf('date', '2026-11-01T09:30:00Z', NOW).error).toBe('Choose a time in the future.');
    expect(expiryOf('date', '', NOW).error).toBe('Choose a date and time.');
  });

  it('reads download limits', () => {
    expect(maxDownloadsOf('1')).toBe(1);
    expect(maxDownloadsOf('100')).toBe(100);
    expect(maxDownloadsOf('unlimited')).toBeNull();
  });

  it("shows a link's current expiry and limit as the form's choices", () => {
    const current = choicesOf('2026-12-01T09:30:00.000Z', 5);
    expect(current.expiry).toBe('date');
    expect(current.limit).toBe('5');
    // The date field is local time: read back, it is the same moment.
    expect(expiryOf(current.expiry, current.date, NOW).expiresAt).toBe('2026-12-01T09:30:00.000Z');
    expect(choicesOf(null, null)).toEqual({ expiry: 'never', date: '', limit: 'unlimited' });
  });
});
