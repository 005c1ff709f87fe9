/**
 * Requests for every operation of the OpenAPI document, drawn by fast-check: values that follow the
 * schema, values that nearly do (one field replaced by anything), and bodies no schema describes
 * (random bytes, JSON of the wrong shape, multipart forms without a boundary or cut short, a
 * Content-Length that promises more than is sent). The fuzz test sends them over a real socket.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';

export interface OpenApiOperation {
  method: string;
  /** OpenAPI template, e.g. `/api/users/files/{id}`. */
  path: string;
  pathParams: Record<string, JsonSchema>;
  query: Record<string, JsonSchema>;
  body: JsonSchema | undefined;
  consumes: string[];
}

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  const?: unknown;
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}

interface OpenApiDoc {
  paths: Record<string, Record<string, OpenApiOperationObject>>;
}
interface OpenApiOperationObject {
  parameters?: { in: string; name: string; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

/** The operations of `doc`, with their parameter and body schemas. */
export function operationsOf(doc: unknown): OpenApiOperation[] {
  const operations: OpenApiOperation[] = [];
  for (const [path, item] of Object.entries((doc as OpenApiDoc).paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const pathParams: Record<string, JsonSchema> = {};
      const query: Record<string, JsonSchema> = {};
      for (const p of op.parameters ?? []) {
        if (p.in === 'path') pathParams[p.name] = p.schema ?? {};
        if (p.in === 'query') query[p.name] = p.schema ?? {};
      }
      const content = op.requestBody?.content ?? {};
      const consumes = Object.keys(content);
      const body = consumes.map((type) => content[type]?.schema).find((s) => s !== undefined);
      operations.push({ method: method.toUpperCase(), path, pathParams, query, body, consumes });
    }
  }
  return operations;
}

const nasty = fc.constantFrom(
  '',
  ' ',
  '..',
  '../../etc/passwd',
  '%',
  '%ZZ',
  '%00',
  '\u0000',
  'null',
  'undefined',
  '-1',
  '0',
  '1e309',
  '9007199254740993',
  '99999999999999999999999',
  'NaN',
  '[]',
  '{}',
  "' or 1=1 --",
  '😀',
  'a'.repeat(5000),
);

/** A string that is sometimes valid for `schema`, sometimes not. */
function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  const plain = fc.string({
    minLength: schema.minLength ?? 0,
    maxLength: Math.min(schema.maxLength ?? 64, 300),
  });
  let valid = plain;
  if (schema.pattern !== undefined) {
    try {
      valid = fc
        .stringMatching(new RegExp(schema.pattern))
        .filter((s) => s.length <= (schema.maxLength ?? 10_000));
    } catch {
      // fast-check cannot draw from every pattern (lookaheads); plain strings then.
    }
  }
  return fc.oneof(valid, nasty, fc.string({ unit: 'binary', maxLength: 80 }));
}

/** Values that follow `schema`; `sloppy` also draws values that break it in one place. */
export function valueFor(schema: JsonSchema, sloppy = true, depth = 0): fc.Arbitrary<unknown> {
  const exact = exactValueFor(schema, depth);
  if (!sloppy || depth > 3) return exact;
  return fc.oneof(
    { weight: 6, arbitrary: exact },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
    { weight: 1, arbitrary: fc.constantFrom(null, -1, 0, 1.5, 2 ** 53, -(2 ** 63), '', [], {}) },
  );
}

function exactValueFor(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives !== undefined && alternatives.length > 0) {
    return fc.oneof(...alternatives.map((s) => valueFor(s, true, depth + 1)));
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringFor(schema);
    case 'integer':
      return fc.oneof(
        fc.integer({ min: schema.minimum ?? -1_000_000, max: Math.min(schema.maximum ?? 1e9, 2 ** 31) }),
        fc.constantFrom(schema.minimum ?? 0, schema.maximum ?? 2 ** 53, Number.MAX_SAFE_INTEGER),
      );
    case 'number':
      return fc.double({ noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(valueFor(schema.items ?? {}, true, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, 5),
      });
    case 'object': {
      const entries = Object.entries(schema.properties ?? {});
      const required = new Set(schema.required ?? []);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, value] of entries) record[key] = valueFor(value, true, depth + 1);
      return fc.record(record, {
        requiredKeys: entries.map(([key]) => key).filter((key) => required.has(key)),
      });
    }
    case undefined:
    default:
      return fc.anything({ maxDepth: 1 });
  }
}

/** One request, ready to be written on a socket. */
export interface FuzzRequest {
  method: string;
  target: string;
  headers: Record<string, string>;
  body: Buffer;
  /** Send only this many bytes of the body, fewer than it has (a client dying mid-body); half-close. */
  truncateAt: number | undefined;
  /** Declared Content-Length when it differs from the body length (always more); half-close. */
  declaredLength: number | undefined;
}

export interface FuzzContext {
  /** Valid bearer tokens, used for most requests. */
  tokens: string[];
  /** Tokens that must be refused (expired, garbage), used for a few. */
  badTokens: string[];
  /** Ids of real resources of the token's user, so some requests reach real rows. */
  ids: string[];
}

function formWithFile(fields: Record<string, string>, file: Buffer, boundary: string): Buffer {
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  chunks.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return Buffer.concat(chunks);
}

function bodyFor(op: OpenApiOperation): fc.Arbitrary<{ type: string | undefined; body: Buffer }> {
  // JSON.stringify(undefined) is undefined, whatever its declared type says.
  const json = (value: unknown) => Buffer.from((JSON.stringify(value) as string | undefined) ?? 'null');
  const schemaBody = op.body === undefined ? fc.anything({ maxDepth: 2 }) : valueFor(op.body);
  const directFields = fc.record({
    name: stringFor({ maxLength: 50 }),
    contentType: fc.constantFrom('application/pdf', 'text/plain', '', 'x'),
    size: fc.oneof(fc.nat({ max: 2000 }).map(String), nasty),
    isEncrypted: fc.constantFrom('true', 'false', 'x'),
    encryptionInfo: fc.oneof(
      fc.constant('{"version":"k","algorithm":"AES-GCM","iv":"","encryptedFileKey":"AAAA"}'),
      nasty,
    ),
  });
  return fc.oneof(
    { weight: 5, arbitrary: schemaBody.map((value) => ({ type: 'application/json', body: json(value) })) },
    {
      weight: 1,
      arbitrary: fc
        .uint8Array({ maxLength: 2048 })
        .chain((bytes) =>
          fc
            .constantFrom(
              'application/json',
              'application/octet-stream',
              'text/plain',
              'multipart/form-data',
              'multipart/form-data; boundary=',
              'multipart/form-data; boundary=zzz',
              'application/x-www-form-urlencoded',
              'application/json; charset=utf-16',
              'image/png',
              '',
            )
            .map((type) => ({ type: type === '' ? undefined : type, body: Buffer.from(bytes) })),
        ),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(directFields, fc.nat({ max: 4096 }), fc.boolean())
        .map(([fields, fileLength, withBoundary]) => {
          const boundary = `fuzz${randomBytes(6).toString('hex')}`;
          return {
            type: withBoundary ? `multipart/form-data; boundary=${boundary}` : 'multipart/form-data',
            body: formWithFile(fields, randomBytes(fileLength), boundary),
          };
        }),
    },
    { weight: 1, arbitrary: fc.constant({ type: undefined, body: Buffer.alloc(0) }) },
  );
}

/**
 * A drawn value as URL text. Not `String`: `fc.anything` draws objects such as `{ toString: 0 }`, which
 * `String` cannot convert (a TypeError in the generator, not a finding about the server).
 */
export function asText(value: unknown): string {
  try {
    return String(value);
  } catch {
    return JSON.stringify(value);
  }
}

function targetFor(op: OpenApiOperation, ids: string[]): fc.Arbitrary<string> {
  const paramNames = Object.keys(op.pathParams);
  const param = (name: string) =>
    fc
      .oneof(
        { weight: 2, arbitrary: fc.constantFrom(...ids) },
        { weight: 3, arbitrary: valueFor(op.pathParams[name] ?? {}).map(asText) },
        { weight: 1, arbitrary: nasty },
      )
      .chain((value) => fc.constantFrom(encodeURIComponent(value), value.replace(/[/?#\s]/g, '_')));
  const queryEntries = Object.entries(op.query);
  const query = fc.record(
    Object.fromEntries([
      ...queryEntries.map(([name, schema]) => [
        name,
        fc.oneof(valueFor(schema).map(asText), fc.constantFrom(...ids), nasty),
      ]),
      ['cursor', fc.oneof(nasty, fc.string())],
      ['extra', fc.string({ maxLength: 5 })],
    ]) as Record<string, fc.Arbitrary<string>>,
    { requiredKeys: [] },
  );
  return fc
    .tuple(fc.tuple(...paramNames.map(param)), query, fc.boolean())
    .map(([values, params, arrayParam]) => {
      let path = op.path;
      paramNames.forEach((name, i) => {
        path = path.replace(`{${name}}`, values[i] ?? '');
      });
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries(params)) {
        search.append(key, value ?? '');
        // The same key twice: Fastify hands the handler an array where the schema wants a string.
        if (arrayParam) search.append(key, value ?? '');
      }
      const qs = search.toString();
      return qs === '' ? path : `${path}?${qs}`;
    });
}

/** Requests for `op`. */
export function requestsFor(op: OpenApiOperation, ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const hasBody = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(op.method);
  return fc
    .record({
      target: targetFor(op, ctx.ids),
      token: fc.oneof(
        { weight: 16, arbitrary: fc.constantFrom(...ctx.tokens) },
        { weight: 1, arbitrary: fc.constantFrom(...ctx.badTokens) },
        { weight: 1, arbitrary: fc.constant(undefined) },
      ),
      body: hasBody ? bodyFor(op) : fc.constant({ type: undefined, body: Buffer.alloc(0) }),
      cut: fc.oneof(
        { weight: 8, arbitrary: fc.constant<'none'>('none') },
        { weight: 1, arbitrary: fc.constant<'truncate'>('truncate') },
        { weight: 1, arbitrary: fc.constant<'overstate'>('overstate') },
      ),
      fraction: fc.double({ min: 0, max: 1, noNaN: true }),
    })
    .map(({ target, token, body, cut, fraction }) => {
      const headers: Record<string, string> = {};
      if (token !== undefined) headers.authorization = `Bearer ${token}`;
      if (body.type !== undefined) headers['content-type'] = body.type;
      // A cut leaves out at least one byte, so every half-closed request is one the server cannot read
      // whole (and answers 400). A request sent whole and then half-closed is a client that stops
      // listening: Node's server (httpAllowHalfOpen off) closes the connection then, and answers nothing
      // if the route had not answered yet. An empty body (every GET) cannot be cut.
      const length = body.body.length;
      const truncateAt =
        cut === 'truncate' && length > 0 ? Math.min(Math.floor(length * fraction), length - 1) : undefined;
      const declaredLength = cut === 'overstate' ? length + 1 + Math.floor(fraction * 100) : undefined;
      return { method: op.method, target, headers, body: body.body, truncateAt, declaredLength };
    });
}
