import { describe, expect, it } from 'vitest';
import { ValidationError } from './errors.js';
import { decodeCursor, encodeCursor, pageOf } from './page-cursor.js';

describe('page cursors', () => {
  it('round-trip a position', () => {
    const position = { at: '2026-11-23T21:38:55.123Z', id: 'abc-123_x' };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
  });

  it('refuse cursors the server did not make', () => {
    for (const bad of [
      '',
      'x',
      Buffer.from('2026|a b').toString('base64url'),
      encodeCursor({ at: 'now', id: 'a' }),
    ]) {
      expect(() => decodeCursor(bad), bad).toThrow(ValidationError);
    }
  });

  it('read the whole list without a limit, and refuse a cursor without one', () => {
    expect(pageOf({})).toBeUndefined();
    expect(pageOf({ limit: 5 })).toEqual({ limit: 5, after: undefined });
    expect(() => pageOf({ cursor: 'abc' })).toThrow(ValidationError);
  });
});
