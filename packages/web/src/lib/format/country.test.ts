import { describe, expect, it } from 'vitest';
import { formatCountry } from './country';

describe('formatCountry', () => {
  it('names region codes and keeps other values', () => {
    expect(formatCountry('GB')).toBe('United Kingdom');
    expect(formatCountry('de')).toBe('Germany');
    expect(formatCountry('Portugal')).toBe('Portugal');
    expect(formatCountry('XX')).toBe('XX');
  });

  it('is null when missing', () => {
    expect(formatCountry(null)).toBeNull();
    expect(formatCountry(undefined)).toBeNull();
    expect(formatCountry('  ')).toBeNull();
  });
});
