import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import { apiRouteById, apiRoutes, buildApiPath } from './api-routes.js';
import { apiSchemas } from './api-schemas.js';

/** Every `pattern` in a schema tree. */
function patternsOf(node: unknown): string[] {
  if (typeof node !== 'object' || node === null) return [];
  const own = (node as { pattern?: unknown }).pattern;
  const nested = Object.values(node).flatMap(patternsOf);
  return typeof own === 'string' ? [own, ...nested] : nested;
}

describe('apiSchemas', () => {
  it.each(Object.entries(apiSchemas))('%s has its name as title and compiles', (name, schema) => {
    const annotations = schema as { title?: unknown; description?: unknown };
    expect(annotations.title).toBe(name);
    expect(typeof annotations.description).toBe('string');
    expect(() => Compile(schema)).not.toThrow();
  });

  it('uses only patterns that compile with the unicode flag (as Ajv compiles them)', () => {
    const patterns = Object.values(apiSchemas).flatMap(patternsOf);
    expect(patterns.length).toBeGreaterThan(10);
    for (const pattern of patterns) expect(() => new RegExp(pattern, 'u'), pattern).not.toThrow();
  });

  it('closes every object of a request', () => {
    for (const route of apiRoutes) {
      for (const name of [route.body, route.params, route.querystring]) {
        if (name === undefined) continue;
        const schema = apiSchemas[name] as { additionalProperties?: unknown };
        expect(schema.additionalProperties, `${route.operationId} ${name}`).toBe(false);
      }
    }
  });
});

describe('apiRoutes', () => {
  it('lists every route once', () => {
    const keys = apiRoutes.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(apiRoutes.map((r) => r.operationId)).size).toBe(apiRoutes.length);
    // The spec's calls, health, the password change, /users/me and its resend, pins, signing keys and
    // the invitations I received, sharing several files with one person in one action, and the state
    // of an unfinished multipart upload (resuming it); re-wrapping all keys at once and the recovery
    // kit (get, put, delete); the encrypted drive of issue 31 (drive key, file nodes, folders and
    // folder shares: 13).
    // Links and file requests of issue 30: 16.
    expect(apiRoutes).toHaveLength(76);
    expect(apiRouteById('uploadPart').path).toBe('/users/uploads/multipart/:uploadId/part/:n');
  });

  it('declares a params schema with exactly the path parameters', () => {
    for (const route of apiRoutes) {
      const names = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]).sort();
      if (route.params === undefined) {
        expect(names, route.operationId).toEqual([]);
        continue;
      }
      expect(Object.keys(apiSchemas[route.params].properties).sort(), route.operationId).toEqual(names);
    }
  });

  it('gives a body schema exactly to routes with a JSON or form body', () => {
    for (const route of apiRoutes) {
      const hasSchema = route.body !== undefined;
      expect(hasSchema, route.operationId).toBe(route.bodyKind === 'json' || route.bodyKind === 'multipart');
    }
  });

  it('builds encoded paths', () => {
    expect(buildApiPath('/users/files/:id/share/:email', { id: 'f1', email: 'a+b@x.io' })).toBe(
      '/users/files/f1/share/a%2Bb%40x.io',
    );
    expect(buildApiPath('/users/uploads/multipart/:uploadId/part/:n', { uploadId: 'u', n: 3 })).toBe(
      '/users/uploads/multipart/u/part/3',
    );
    expect(() => buildApiPath('/users/files/:id')).toThrow('Missing path parameter: id');
  });
});
