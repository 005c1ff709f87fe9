import { describe, expect, it } from 'vitest';
import { asText } from './api-fuzz.js';

describe('fuzz generator: asText', () => {
  it('turns any drawn value into text, also objects String cannot convert', () => {
    expect(asText(12)).toBe('12');
    expect(asText(null)).toBe('null');
    // `String({ toString: 0 })` throws "Cannot convert object to primitive value".
    expect(asText({ toString: 0 })).toBe('{"toString":0}');
    expect(asText(Object.assign(Object.create(null) as object, { a: 1 }))).toBe('{"a":1}');
  });
});
