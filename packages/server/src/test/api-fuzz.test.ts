import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asText, requestsFor } from './api-fuzz.js';
import type { FuzzContext, OpenApiOperation } from './api-fuzz.js';

describe('fuzz generator: asText', () => {
  it('turns any drawn value into text, also objects String cannot convert', () => {
    expect(asText(12)).toBe('12');
    expect(asText(null)).toBe('null');
    // `String({ toString: 0 })` throws "Cannot convert object to primitive value".
    expect(asText({ toString: 0 })).toBe('{"toString":0}');
    expect(asText(Object.assign(Object.create(null) as object, { a: 1 }))).toBe('{"a":1}');
  });
});

describe('fuzz generator: framing', () => {
  const ctx: FuzzContext = { tokens: ['t'], badTokens: ['bad'], ids: ['1'] };
  const operation = (method: string, body: OpenApiOperation['body']): OpenApiOperation => ({
    method,
    path: '/api/things/{id}',
    pathParams: { id: { type: 'string' } },
    query: {},
    body,
    consumes: body === undefined ? [] : ['application/json'],
  });
  const operations = [
    operation('GET', undefined),
    operation('DELETE', undefined),
    operation('POST', { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }),
  ];

  // A request sent whole and then half-closed is not malformed: Node's server takes the half-close for a
  // client that left and closes without answering a route still at work, so the fuzz saw no answer.
  it('half-closes only a request whose body is left incomplete', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...operations).chain((op) => requestsFor(op, ctx)),
        (req) => {
          if (req.truncateAt !== undefined) expect(req.truncateAt).toBeLessThan(req.body.length);
          if (req.declaredLength !== undefined) expect(req.declaredLength).toBeGreaterThan(req.body.length);
        },
      ),
      { numRuns: 2000 },
    );
    // A ceiling, not its duration: 1.7 s alone, over 30 s (the server project's limit) in a full
    // `npm test` at load 13 (failed so once).
  }, 120_000);
});
